// A listing's sorts and filters (category pages and search results, beyond the spec): the API's
// query parameters and the address the storefront keeps them in name them from here, so both agree.

export const BROWSE_SORTS = ['relevance', 'bestselling', 'top-rated', 'newest', 'price-asc', 'price-desc'] as const;
export type BrowseSort = (typeof BROWSE_SORTS)[number];

export interface BrowseFilters {
  /** Lowest price, inclusive. */
  priceMin?: number;
  /** Highest price, inclusive. */
  priceMax?: number;
  /** Only copies with stock. */
  inStock?: boolean;
  /** Lowest average rating (as shown, to two decimals). */
  minRating?: number;
  /** First publication year, inclusive. */
  yearFrom?: number;
  /** Last publication year, inclusive. */
  yearTo?: number;
  authorId?: number;
}

/** The filters (not the sort or page): what Clear filters removes. */
export const BROWSE_FILTER_KEYS = [
  'priceMin',
  'priceMax',
  'inStock',
  'minRating',
  'yearFrom',
  'yearTo',
  'authorId',
] as const satisfies readonly (keyof BrowseFilters)[];

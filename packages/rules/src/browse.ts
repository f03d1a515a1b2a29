// A listing's sorts and filters (category pages and search results, beyond the spec): the API's
// query parameters, the address the storefront keeps them in, and the server's first paint of a
// category page name and read them from here, so all three agree.
import { MAX_ROW_ID } from './forms.ts';

export const BROWSE_SORTS = ['relevance', 'bestselling', 'top-rated', 'newest', 'price-asc', 'price-desc'] as const;
export type BrowseSort = (typeof BROWSE_SORTS)[number];

export interface BrowseFilters {
  /** Lowest price, inclusive. */
  priceMin?: number;
  /** Highest price, inclusive. */
  priceMax?: number;
  /** Only copies with stock. */
  inStock?: boolean;
  /** Lowest average rating (as shown, to one decimal). */
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

/** A listing's sort, filters and page, as the storefront's address holds them. */
export interface BrowseState extends BrowseFilters {
  sort?: BrowseSort;
  /** From 1; left out of the address on the first page. */
  page?: number;
}

/**
 * `value` to `decimals` places, rounded by `round` (Math.ceil, Math.floor) when it has more. A value
 * already at that precision stays as it is, though its product by 10^decimals is off in the last bit
 * (0.07 * 100 is 7.000000000000001).
 */
const toPlaces = (value: number, decimals: number, round: (n: number) => number) => {
  const scale = 10 ** decimals;
  const scaled = value * scale;
  const nearest = Math.round(scaled);
  return (Math.abs(scaled - nearest) <= Math.abs(scaled) * 1e-15 ? nearest : round(scaled)) / scale;
};

/**
 * Each bound in the precision of what it compares, with the way that selects the same rows: lowest
 * up, highest down. Prices have cents; a rating is compared as the storefront shows it, to one
 * decimal (ratingAsShown).
 */
const BOUND_PRECISION = {
  priceMin: { decimals: 2, round: Math.ceil },
  priceMax: { decimals: 2, round: Math.floor },
  minRating: { decimals: 1, round: Math.ceil },
};
const BOUNDS = Object.keys(BOUND_PRECISION) as (keyof typeof BOUND_PRECISION)[];
const inPrecision = (key: keyof typeof BOUND_PRECISION) => (n: number) =>
  toPlaces(n, BOUND_PRECISION[key].decimals, BOUND_PRECISION[key].round);

/**
 * A book's average rating as the storefront shows it (spec: one decimal), rounded once from its
 * ratings' sum and count, half up. The API answers it so, and the category pages filter and sort by
 * it (browse_listing_source rounds the same way), so a book shown at 4.0 is among "4 stars and up".
 */
export const ratingAsShown = (ratingsSum: number, ratingsCount: number) =>
  ratingsCount ? Math.round((ratingsSum * 10) / ratingsCount) / 10 : 0;

/**
 * The filters with each bound in the precision of what it compares: prices are kept to the cent and
 * ratings to one decimal (as shown; browse_listing rounds them so), so a lowest bound with more
 * decimals selects what it does rounded up to that precision, and a highest bound rounded down (a
 * highest price of 10, 10.0 or 10.001 is 10; a lowest of 10.001 is 10.01; a lowest rating of 3.51 is
 * 3.6). The answer is the same, and each filter has one spelling: the API keys its cached answers by
 * these, the storefront asks for them and the server's first paint reads them, so a stranger cannot
 * fill the catalog cache with spellings of one listing.
 */
export function normalizedBrowseFilters<T extends BrowseFilters>(filters: T): T {
  const out = { ...filters };
  for (const key of BOUNDS) if (out[key] !== undefined) out[key] = inPrecision(key)(out[key]);
  return out;
}

type Bounds = { min: number; max: number; integer?: boolean };
const number = (value: string | null, { min, max, integer }: Bounds, round = (n: number) => n) => {
  if (value === null || !/^\d+(\.\d+)?$/.test(value)) return undefined;
  const n = round(Number(value));
  if (n < min || n > max || (integer && !Number.isInteger(n))) return undefined;
  return n;
};

/**
 * The state an address's query string names. Anything it does not understand (an unknown sort, a
 * negative price, a rating of 9, 'yes' for in stock) is dropped, so a hand-edited or hostile
 * address still shows a page: the storefront reads its address with this, and the server renders
 * a category page's first paint from the same reading, so both show the same books.
 */
export function parseBrowseState(params: URLSearchParams): BrowseState {
  const sort = params.get('sort');
  const state: BrowseState = {
    sort: (BROWSE_SORTS as readonly string[]).includes(sort ?? '') ? (sort as BrowseSort) : undefined,
    // In the precision normalizedBrowseFilters gives them (checked against the range after it).
    priceMin: number(params.get('priceMin'), { min: 0, max: 99_999_999 }, inPrecision('priceMin')),
    priceMax: number(params.get('priceMax'), { min: 0, max: 99_999_999 }, inPrecision('priceMax')),
    inStock: params.get('inStock') === '1' || undefined,
    minRating: number(params.get('minRating'), { min: 0, max: 5 }, inPrecision('minRating')),
    yearFrom: number(params.get('yearFrom'), { min: 1, max: 9999, integer: true }),
    yearTo: number(params.get('yearTo'), { min: 1, max: 9999, integer: true }),
    authorId: number(params.get('authorId'), { min: 1, max: MAX_ROW_ID, integer: true }),
    page: number(params.get('page'), { min: 2, max: MAX_ROW_ID, integer: true }),
  };
  return Object.fromEntries(Object.entries(state).filter(([, v]) => v !== undefined)) as BrowseState;
}

/** The state as query parameters, in a fixed order; `keep` carries others along (a search's text). */
export function browseSearchParams(state: BrowseState, keep: Record<string, string> = {}): URLSearchParams {
  const params = new URLSearchParams(keep);
  if (state.sort) params.set('sort', state.sort);
  for (const key of BROWSE_FILTER_KEYS) {
    const value = state[key];
    if (value === undefined || value === false) continue;
    params.set(key, value === true ? '1' : String(value));
  }
  if (state.page && state.page > 1) params.set('page', String(state.page));
  return params;
}

export const hasFilters = (state: BrowseState) => BROWSE_FILTER_KEYS.some((key) => state[key] !== undefined);

/** The browse call's query for a state: its filters and sort, with the page and its size. */
export function browseQuery(state: BrowseState, pageSize: number) {
  const { page = 1, ...rest } = state;
  return { ...rest, pageNumber: page, pageSize };
}

/**
 * Spec 2.5 clamps paging to 1..totalPages: the page an address past its listing's end (a page
 * number typed or kept from when the listing was longer) shows instead, its last page, or undefined
 * when the address's page is in range. The storefront moves such an address to that page without a
 * history entry and the server redirects it there, so both show the same books.
 */
export function clampedPage(state: BrowseState, totalPages: number): number | undefined {
  const last = Math.max(1, totalPages);
  return (state.page ?? 1) > last ? last : undefined;
}

/** Lower-case, accent-free, single-spaced: the form search compares (e.g. "Gabriel García Márquez" -> "gabriel garcia marquez"). */
export function normalizeForSearch(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * Whether a search text has anything to look for: a letter or a digit. The search call refuses one
 * without (400); the storefront says it found nothing for it, as spec 2.6 says of any search.
 */
export const hasSearchWords = (text: string) => normalizeForSearch(text) !== '';

/** Suggestions as a shopper types start at this many letters or digits (punctuation and spaces do not count). */
export const SUGGEST_MIN_LETTERS = 2;
/** Whether what is typed is enough to suggest from: the storefront asks only then, and the API answers nothing for less. */
export const wantsSuggestions = (text: string) => normalizeForSearch(text).length >= SUGGEST_MIN_LETTERS;

/** The longest search text the search call takes (its `text` parameter's maxLength). */
export const SEARCH_TEXT_MAX_LENGTH = 200;

/**
 * The text a search address or the search box asks for: trimmed, and cut to what the search call
 * takes (a pasted paragraph still searches its beginning rather than failing), never leaving half a
 * surrogate pair at the cut. The storefront and the server's first paint read `?q=` with this, so
 * both ask the search call the same question (and share its cached answer).
 */
export const searchTextOf = (text: string) =>
  text
    .trim()
    .slice(0, SEARCH_TEXT_MAX_LENGTH)
    .replace(/[\uD800-\uDBFF]$/, '')
    .trim();

// A listing's answer as the browse routes serve it, read through the catalog cache: the API's browse
// call and the server's first paint of a category page both read here, so a category address's
// HTML lists the very books (and the same cached answer) the storefront's call then receives.
import { normalizedBrowseFilters } from '@bookshop/rules/browse';
import type { FastifyInstance } from 'fastify';
import { CACHED_READS } from './cached-reads.ts';
import type { BrowseOptions } from './catalog-service.ts';

/** Without a page size, a listing's page holds this many books (the storefront's pages do). */
export const BROWSE_PAGE_SIZE = 15;

/**
 * The options in a fixed order and their bounds in the precision they compare (normalizedBrowseFilters), so one
 * listing has one cache key however its address spells it.
 */
export function browseOptions(query: Partial<BrowseOptions>): BrowseOptions {
  return normalizedBrowseFilters({
    pageNumber: query.pageNumber ?? 1,
    pageSize: query.pageSize ?? BROWSE_PAGE_SIZE,
    sort: query.sort ?? 'relevance',
    priceMin: query.priceMin,
    priceMax: query.priceMax,
    inStock: query.inStock || undefined,
    minRating: query.minRating,
    yearFrom: query.yearFrom,
    yearTo: query.yearTo,
    authorId: query.authorId,
  });
}

type Readers = Pick<FastifyInstance, 'catalog' | 'catalogCache'>;

/**
 * A page of a category (any letter case) in a sort and filters; 404 for no such category. Its books,
 * order and counts are browse_listing's; only the page's own stock is read live (with the in-stock
 * filter, whether it is any), so a sale of another copy leaves the kept answer as it is.
 */
export function browseCategoryListing(app: Readers, typeName: string, query: Partial<BrowseOptions>) {
  const options = browseOptions(query);
  return app.catalogCache.read(
    `browse ${typeName.toLowerCase()} ${JSON.stringify(options)}`,
    () => app.catalog.browseCategory(typeName, options),
    CACHED_READS.browseCategory,
  );
}

/** A page of a search's results in a sort and filters: as a category page, it reads live only its own copies' stock. */
export function browseSearchListing(app: Readers, text: string, query: Partial<BrowseOptions>) {
  const options = browseOptions(query);
  return app.catalogCache.read(
    `search ${text} ${JSON.stringify(options)}`,
    () => app.catalog.browseSearch(text, options),
    CACHED_READS.browseSearch,
  );
}

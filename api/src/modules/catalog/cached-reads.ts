// What each of the catalog's cached answers depends on (plugins/catalog-cache.ts): how it depends on
// stock, and which projections its SQL reads (catalog-queries.ts, browse-queries.ts). A sale forgets
// only the answers that show its copies, and a projection's refresh only those that read it.
// api/test/catalog-cache-refresh.test.ts checks each route's against the SQL its answer's load runs.
import type { CachedReadDependence } from '../../plugins/catalog-cache.ts';

export const CACHED_READS = {
  /** The categories: book_types alone. */
  types: { stock: 'none', projections: [] },
  /** The spec's category page: category_listing's positions. */
  categoryPage: { stock: 'shown', projections: ['category_listing'] },
  /** A copy's detail: its own rows, live. */
  bookDetail: { stock: 'shown', projections: [] },
  /** The spec's search: the short words' shortcuts and the vocabulary of spellings. */
  search: { stock: 'shown', projections: ['search_shortcuts', 'search_vocabulary'] },
  /** The home page's lists, Recommended among them. */
  homeList: { stock: 'shown', projections: ['home_list_candidates'] },
  /** A category page in any sort and filters, with its counts. */
  browseCategory: { stock: 'shown', projections: ['browse_listing', 'browse_counts'] },
  /**
   * A category listing's counts, kept apart for all its sorts and pages (catalog-service.ts). Their
   * stock is browse_listing's, never live: only its catch-up changes them.
   */
  browseCounts: { stock: 'none', projections: ['browse_listing', 'browse_counts'] },
  /** A search's results page: the search's candidates, sorted and filtered by browse_listing. */
  browseSearch: { stock: 'shown', projections: ['browse_listing', 'search_shortcuts', 'search_vocabulary'] },
  /** Type-ahead suggestions. */
  suggestions: { stock: 'none', projections: ['search_suggestions'] },
} as const satisfies Record<string, CachedReadDependence>;

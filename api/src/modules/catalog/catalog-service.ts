// What the storefront shows: cards, details and search results, shaped as spec section 3 names them.

import { BROWSE_FILTER_KEYS, normalizeForSearch, ratingAsShown, SUGGEST_MIN_LETTERS } from '@bookshop/rules/browse';
import { coverUrl } from '../../lib/cover.ts';
import { AppError } from '../../lib/errors.ts';
import { toMoney } from '../../lib/money.ts';
import { refuse } from '../../lib/refusals.ts';
import {
  BROWSE_MAX_RESULTS,
  type BrowseCounts,
  type BrowseFilters,
  type BrowseRow,
  type BrowseSort,
  PRICE_BANDS,
  RATING_FLOORS,
  YEAR_BANDS,
} from './browse-queries.ts';
import { type CardRow, type DetailRow, SEARCH_MAX_WORDS, type SearchTerms } from './catalog-queries.ts';
import type { CatalogRepository } from './catalog-repository.ts';

export const HOME_LIST_SIZE = 20;
export const SEARCH_LIMIT = 50;
/** Words this short match too much to search by; search_shortcuts holds their prefixes. */
const SHORT_WORD = 2;
export const RECOMMENDED_PER_CATEGORY = 2;
/** Book pages per sitemap file: a file stays a few hundred KB, well under the protocol's 50,000 URLs. */
export const SITEMAP_BOOKS_PER_FILE = 10_000;

export const toCard = (row: CardRow) => ({
  id: row.id,
  name: row.name,
  imageUrl: coverUrl(row.imageUrl, row.name, row.authorName),
  authorName: row.authorName,
  authorId: row.authorId,
  price: toMoney(row.price),
  quantity: row.quantity,
});

/** A book's average as the storefront shows it: one decimal (ratingAsShown). */
export const averageRating = (ratingsSum: CardRow['price'], ratingsCount: number) =>
  ratingAsShown(Number(ratingsSum.toString()), ratingsCount);

export const toDetail = (row: DetailRow) => ({
  id: row.id,
  name: row.name,
  imageUrl: coverUrl(row.imageUrl, row.name, row.authorName),
  author: row.authorName,
  authorName: row.authorName,
  authorId: row.authorId,
  category: row.category,
  price: toMoney(row.price),
  quantity: row.quantity,
  description: row.description ?? '',
  averageRating: averageRating(row.ratingsSum, row.ratingsCount),
  ratingsCount: row.ratingsCount,
});

/**
 * How a normalized search text is looked up: one- and two-letter words, and a lone common word, go
 * to the precomputed shortcuts (ranking their many matches per request grows with the catalog);
 * anything else is searched by its words, the short ones only as word prefixes.
 */
/** A search text, normalized; refused when empty or too long. */
function searchText(text: string) {
  const normalized = normalizeForSearch(text);
  if (!normalized) throw refuse.emptySearch();
  if (normalized.length > 200) throw refuse.searchTooLong();
  return normalized;
}

export function searchTerms(normalized: string): SearchTerms {
  const words = [...new Set(normalized.split(' '))];
  const longest = words.reduce((a, b) => (b.length > a.length ? b : a));
  if (longest.length <= SHORT_WORD)
    return { shortcut: longest, others: words.filter((w) => w !== longest), words: [], normalized, shortcutOnly: true };
  const long = words.filter((w) => w.length > SHORT_WORD);
  return {
    shortcut: words.length === 1 ? longest : '',
    others: words.filter((w) => w.length <= SHORT_WORD),
    words: long.slice(0, SEARCH_MAX_WORDS),
    normalized,
    shortcutOnly: false,
  };
}

/** At most this many suggestions come back, authors first (from SUGGEST_MIN_LETTERS letters on). */
export const SUGGESTIONS = 8;
const SUGGESTED_AUTHORS = 3;

export interface BrowseOptions extends BrowseFilters {
  sort?: BrowseSort;
  pageNumber: number;
  pageSize: number;
}

/**
 * A browse answer from its statement's row: the page, the total and the facet counts, exact when
 * the counts covered every copy they are about (`size`), else scaled from the sample and said to be
 * estimates. An estimated total is never below what the pages shown so far prove there is.
 */
function browseAnswer(row: BrowseRow, options: BrowseOptions, size: number, skip: number, take: number) {
  const scaler = (whole: number, sampled: number) => (n: number | string) =>
    whole > sampled && sampled ? Math.round((Number(n) * whole) / sampled) : Number(n);
  const sampled = Number(row.sampled);
  const scale = scaler(size, sampled);
  // The author facet counts the category's own sample (the same as the others' unless an author is chosen).
  const categorySize = Number(row.categorySize ?? size);
  const categorySampled = Number(row.categorySampled ?? sampled);
  const scaleAuthors = scaler(categorySize, categorySampled);
  const estimated = size > sampled;
  const seen = skip + row.rows.length + (row.rows.length === take && take > 0 ? 1 : 0);
  const total = estimated ? Math.max(scale(row.matching), row.rows.length ? seen : 0) : Number(row.matching);
  return {
    booksCopies: row.rows.map((r) => toDetail(r)),
    pageNumber: options.pageNumber,
    total,
    totalEstimated: estimated,
    totalPages: Math.ceil(Math.min(total, BROWSE_MAX_RESULTS) / options.pageSize),
    facets: {
      estimated: estimated || categorySize > categorySampled,
      price: PRICE_BANDS.map((band, i) => ({ ...band, count: scale(row.price[i]!) })),
      rating: RATING_FLOORS.map((min, i) => ({ min, count: scale(row.rating[i]!) })),
      year: YEAR_BANDS.map((band, i) => ({ ...band, count: scale(row.year[i]!) })),
      inStock: scale(row.inStock),
      authors: row.authors.map((a) => ({ ...a, count: scaleAuthors(a.count) })),
    },
  };
}

/** The rows to skip and take for a page, never past BROWSE_MAX_RESULTS. */
function pageWindow({ pageNumber, pageSize }: BrowseOptions) {
  const skip = Math.min((pageNumber - 1) * pageSize, BROWSE_MAX_RESULTS);
  return { skip, take: Math.max(0, Math.min(pageSize, BROWSE_MAX_RESULTS - skip)) };
}

/**
 * Keeps a listing's counts under `key` (the catalog cache, in the app), or loads them each time (the
 * default: the bench's bare baseline, which keeps nothing).
 */
export type KeepCounts = (key: string, load: () => Promise<BrowseCounts>) => Promise<BrowseCounts>;

/** One key per category and filters (every filter, as the rules list them): each sort and page of the listing has the same counts. */
const countsKey = (typeName: string, filters: BrowseFilters) =>
  `counts ${typeName.toLowerCase()} ${JSON.stringify(BROWSE_FILTER_KEYS.map((key) => (key === 'inStock' ? filters.inStock === true : (filters[key] ?? null))))}`;

export function catalogService(repo: CatalogRepository, keepCounts: KeepCounts = (_key, load) => load()) {
  return {
    types: () => repo.listTypes(),

    async byType(typeName: string, pageNumber: number, pageSize: number) {
      const page = await repo.pageByType(typeName, (pageNumber - 1) * pageSize, pageSize);
      if (!page) throw refuse.noCategory(typeName);
      return { booksCopies: page.rows.map(toCard), totalPages: Math.ceil(page.total / pageSize) };
    },

    async byId(id: number) {
      const row = await repo.findDetail(id);
      if (!row) throw refuse.bookUnavailable();
      return toDetail(row);
    },

    /** An author's page: their name, and a page of their books on sale with the ratings, most-rated first. */
    async authorPage(id: number, pageNumber: number, pageSize: number) {
      const author = await repo.findAuthor(id);
      if (!author) throw refuse.noAuthor();
      const books = author.booksOnSale ? await repo.authorBooks(id, (pageNumber - 1) * pageSize, pageSize) : [];
      return {
        id: author.id,
        name: author.name,
        books: books.map(toDetail),
        totalBooks: author.booksOnSale,
        totalPages: Math.max(1, Math.ceil(author.booksOnSale / pageSize)),
      };
    },

    /** A book's page: its detail and its ISBN; null when the copy is not on sale. */
    async bookPage(id: number) {
      const row = await repo.findBookPage(id);
      return row && { ...toDetail(row), isbn: row.isbn };
    },

    /** How many sitemap files of book pages there are: one per SITEMAP_BOOKS_PER_FILE copy ids. */
    sitemapFileCount: async () => Math.ceil((await repo.lastCopyId()) / SITEMAP_BOOKS_PER_FILE),
    /** The book pages of sitemap file `file` (from 1): the available copies of its id range. */
    sitemapBooks: (file: number) => repo.sitemapBooks((file - 1) * SITEMAP_BOOKS_PER_FILE, file * SITEMAP_BOOKS_PER_FILE),

    newReleases: async () => (await repo.newReleases(HOME_LIST_SIZE)).map(toCard),
    bestSellers: async () => (await repo.bestSellers(HOME_LIST_SIZE)).map(toCard),
    topRated: async () => (await repo.topRated(HOME_LIST_SIZE)).map(toDetail),

    async recommended(clientId: number | null, today = new Date()) {
      const quota = new Map<number, number>();
      if (clientId !== null) {
        // A signed-in client's top categories give most of the list; the others still appear.
        const favourites = await repo.purchasedCategories(clientId);
        for (const [i, f] of favourites.entries()) quota.set(f.typeId, [6, 4, 3][i] ?? RECOMMENDED_PER_CATEGORY);
      }
      return (await repo.recommended(quota, RECOMMENDED_PER_CATEGORY, today.toISOString().slice(0, 10), HOME_LIST_SIZE)).map(toDetail);
    },

    async search(text: string) {
      return (await repo.search(searchTerms(searchText(text)), SEARCH_LIMIT)).map(toDetail);
    },

    /** A category page in any sort, narrowed by any filters, with the total and facet counts. */
    async browseCategory(typeName: string, options: BrowseOptions) {
      const { skip, take } = pageWindow(options);
      const sort = options.sort ?? 'relevance';
      // The counts are most of the statement's time and the same for every sort and page of the
      // listing: a page whose counts are kept reads only its rows; one whose counts are not reads
      // both in one statement and keeps the counts (a read that shares another's load of them reads
      // its own rows).
      let whole: BrowseRow | undefined;
      const counts = await keepCounts(countsKey(typeName, options), async () => {
        whole = await repo.browseCategory(typeName, sort, options, skip, take);
        // Thrown, so not kept: a stranger's made-up names must not fill the cache.
        if (whole.typeId == null) throw refuse.noCategory(typeName);
        const { rows: _shown, ...counted } = whole;
        return counted;
      }).catch((error: unknown) => {
        // A load shared with a read that spelled the name in other letter cases: the refusal names this read's.
        throw error instanceof AppError && error.statusCode === 404 ? refuse.noCategory(typeName) : error;
      });
      if (!whole) {
        const page = await repo.browseCategoryPage(typeName, sort, options, skip, take);
        // Kept counts of a category renamed since (its notice not heard yet): read the name whole, two
        // statements a page until the notice forgets the counts.
        whole =
          page.typeId === counts.typeId ? { ...counts, rows: page.rows } : await repo.browseCategory(typeName, sort, options, skip, take);
      }
      if (whole.typeId == null) throw refuse.noCategory(typeName);
      return browseAnswer(whole, options, Number(whole.size ?? 0), skip, take);
    },

    /** A search's results (its best matches) in any sort, narrowed by any filters, paged, with exact counts. */
    async browseSearch(text: string, options: BrowseOptions) {
      const { skip, take } = pageWindow(options);
      const row = await repo.browseSearch(searchTerms(searchText(text)), options.sort ?? 'relevance', options, skip, take);
      return browseAnswer(row, options, Number(row.sampled), skip, take);
    },

    /** Type-ahead: up to 3 authors and the books to make 8, heaviest first, for 2 letters or more. */
    async suggest(text: string) {
      const normalized = normalizeForSearch(text).slice(0, 100);
      if (normalized.length < SUGGEST_MIN_LETTERS) return { authors: [], books: [] };
      const rows = await repo.suggest(normalized, SUGGESTED_AUTHORS, SUGGESTIONS);
      const authors = rows.filter((r) => r.kind === 'author').map((r) => ({ id: r.id, name: r.name }));
      const books = rows
        .filter((r) => r.kind === 'book')
        .slice(0, SUGGESTIONS - authors.length)
        .map((r) => ({ id: r.id, name: r.name, authorName: r.authorName ?? '' }));
      return { authors, books };
    },
  };
}

export type CatalogService = ReturnType<typeof catalogService>;

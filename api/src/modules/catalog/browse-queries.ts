// Browsing (issue 30): a category page or a search's results in any sort, narrowed by any filters,
// paged in SQL, with facet counts, in one statement (a category page whose counts are kept reads its
// rows alone: categoryPageSql). The statement text depends only on the sort and
// on which filters are present (absent ones leave no condition, so every plan can use its index);
// values travel as $n parameters. That is thousands of texts: the first ones asked for are prepared
// statements, the rest run unnamed (PREPARED_SHAPES_MOST, plugins/prisma.ts).
//
// A category page reads the browse_listing projection (migration browse_and_suggestions): one index
// per sort, led by the category, so a page is an index range in its order. Its total and facet
// counts are counted over the category's (or its chosen author's) first BROWSE_FACET_SAMPLE copies in
// a fixed pseudo-random order: all of them on the seed catalog, so exact, and a uniform sample at
// scale, scaled to the whole (the answer then says they are estimates). A search reads
// its best SEARCH_CANDIDATES matches (catalog-queries.ts) and filters, sorts, counts and pages those
// exactly: their prices live, their stock and sales as browse_listing has them, as a category page
// does. Both pages read live only the stock of the copies they show (and drop a copy sold out since),
// so a sale of any other copy leaves a kept answer as it was (plugins/catalog-cache.ts).
import type { BrowseFilters, BrowseSort } from '@bookshop/rules/browse';
import { type SearchTerms, searchCtes, searchValues } from './catalog-queries.ts';

export { BROWSE_SORTS, type BrowseFilters, type BrowseSort } from '@bookshop/rules/browse';

/** Past this many results a listing is not paged further: narrow the filters instead. */
export const BROWSE_MAX_RESULTS = 10_000;
/** Facet counts are counted over at most this many of a category's copies (all of them on the seed catalog). */
export const BROWSE_FACET_SAMPLE = 2_500;
/** A search filters, sorts and pages its best this many matches. */
export const SEARCH_CANDIDATES = 300;

/** The facets' fixed values: price bands (inclusive, prices have cents), rating floors, year bands (inclusive). */
export const PRICE_BANDS: { min: number | null; max: number | null }[] = [
  { min: null, max: 9.99 },
  { min: 10, max: 14.99 },
  { min: 15, max: 19.99 },
  { min: 20, max: 29.99 },
  { min: 30, max: null },
];
export const RATING_FLOORS = [4, 3, 2, 1];
export const YEAR_BANDS: { from: number | null; to: number | null }[] = [
  { from: null, to: 1899 },
  { from: 1900, to: 1949 },
  { from: 1950, to: 1999 },
  { from: 2000, to: 2009 },
  { from: 2010, to: null },
];

/** The order of each sort; every one ends with the copy id, so any page is well defined. */
const ORDER: Record<BrowseSort, (a: string, search: boolean) => string> = {
  relevance: (a, search) => (search ? `${a}.relevance` : `${a}.ratings_count DESC, ${a}.copy_id`),
  bestselling: (a) => `${a}.units_sold DESC, ${a}.copy_id`,
  'top-rated': (a) => `${a}.rating DESC, ${a}.ratings_count DESC, ${a}.copy_id`,
  newest: (a) => `${a}.published_at DESC NULLS LAST, ${a}.copy_id`,
  'price-asc': (a) => `${a}.price, ${a}.copy_id`,
  'price-desc': (a) => `${a}.price DESC, ${a}.copy_id`,
};

type Dimension = 'price' | 'stock' | 'rating' | 'year' | 'author';

/** Collects $n parameters; the text refers to each by its position. */
class Params {
  readonly values: unknown[];
  constructor(initial: unknown[] = []) {
    this.values = [...initial];
  }
  add(value: unknown, type: string) {
    this.values.push(value);
    return `$${this.values.length}::${type}`;
  }
}

const yearStart = (year: string) => `make_date(${year}, 1, 1)`;

/** Each present filter's condition on alias `a`, by dimension. */
function conditions(filters: BrowseFilters, params: Params, a: string): Partial<Record<Dimension, string>> {
  const out: Partial<Record<Dimension, string>> = {};
  const price: string[] = [];
  if (filters.priceMin !== undefined) price.push(`${a}.price >= ${params.add(filters.priceMin, 'numeric')}`);
  if (filters.priceMax !== undefined) price.push(`${a}.price <= ${params.add(filters.priceMax, 'numeric')}`);
  if (price.length) out.price = price.join(' AND ');
  if (filters.inStock) out.stock = `${a}.in_stock`;
  if (filters.minRating !== undefined) out.rating = `${a}.rating >= ${params.add(filters.minRating, 'numeric')}`;
  const year: string[] = [];
  if (filters.yearFrom !== undefined) year.push(`${a}.published_at >= ${yearStart(params.add(filters.yearFrom, 'int'))}`);
  if (filters.yearTo !== undefined) year.push(`${a}.published_at < ${yearStart(`${params.add(filters.yearTo, 'int')} + 1`)}`);
  if (year.length) out.year = year.join(' AND ');
  if (filters.authorId !== undefined) out.author = `${a}.author_id = ${params.add(filters.authorId, 'int')}`;
  return out;
}

const all = (parts: (string | undefined)[]) => parts.filter(Boolean).join(' AND ') || 'true';
const except = (conds: Partial<Record<Dimension, string>>, dimension: Dimension) =>
  all(Object.entries(conds).flatMap(([d, c]) => (d === dimension ? [] : [c])));

const priceBand = (a: string, band: (typeof PRICE_BANDS)[number]) =>
  all([band.min !== null ? `${a}.price >= ${band.min}` : undefined, band.max !== null ? `${a}.price <= ${band.max}` : undefined]);
const yearBand = (a: string, band: (typeof YEAR_BANDS)[number]) =>
  all([
    band.from !== null ? `${a}.published_at >= DATE '${band.from}-01-01'` : undefined,
    band.to !== null ? `${a}.published_at < DATE '${band.to + 1}-01-01'` : undefined,
  ]);

/**
 * The facet counts over the rows of `from` (alias `f`, the one the conditions name): each dimension's values counted under the other
 * dimensions' filters (so choosing a value shows what the others would leave), the authors the ten
 * commonest. Also the rows counted ("sampled") and how many pass every filter ("matching").
 */
function facetsSql(conds: Partial<Record<Dimension, string>>, from: string, f: string, authorsFrom = from) {
  const count = (c: string) => `count(*) FILTER (WHERE ${c})`;
  const priceOthers = except(conds, 'price');
  const ratingOthers = except(conds, 'rating');
  const yearOthers = except(conds, 'year');
  const stockOthers = except(conds, 'stock');
  return `
  counts AS (
    SELECT count(*) AS sampled, ${count(all(Object.values(conds)))} AS matching,
           json_build_array(${PRICE_BANDS.map((b) => count(`${priceOthers} AND ${priceBand(f, b)}`)).join(', ')}) AS price,
           json_build_array(${RATING_FLOORS.map((r) => count(`${ratingOthers} AND ${f}.rating >= ${r}`)).join(', ')}) AS rating,
           json_build_array(${YEAR_BANDS.map((b) => count(`${yearOthers} AND ${yearBand(f, b)}`)).join(', ')}) AS year,
           ${count(`${stockOthers} AND ${f}.in_stock`)} AS "inStock"
    FROM ${from} ${f}
  ),
  author_counts AS (
    SELECT coalesce(json_agg(json_build_object('id', x.author_id, 'name', au.full_name, 'count', x.n) ORDER BY x.n DESC, x.author_id), '[]') AS authors
    FROM (SELECT ${f}.author_id, count(*) AS n FROM ${authorsFrom} ${f} WHERE ${except(conds, 'author')} GROUP BY ${f}.author_id ORDER BY 2 DESC, 1 LIMIT 10) x
    CROSS JOIN LATERAL (SELECT au.full_name FROM authors au WHERE au.id = x.author_id) au
  )`;
}

/** A page's rows, live: the copy still available, and still within the price and stock filters. */
function pageRowsSql(filters: BrowseFilters, params: Params) {
  const live: string[] = [];
  if (filters.priceMin !== undefined) live.push(`c.price >= ${params.add(filters.priceMin, 'numeric')}`);
  if (filters.priceMax !== undefined) live.push(`c.price <= ${params.add(filters.priceMax, 'numeric')}`);
  if (filters.inStock) live.push('c.quantity > 0');
  return `
  rows AS (
    SELECT coalesce(json_agg(json_build_object(
             'id', c.id, 'name', b.name, 'imageUrl', b.image_url, 'authorName', au.full_name, 'authorId', b.author_id,
             'price', c.price, 'quantity', c.quantity, 'category', t.name, 'description', b.description,
             'ratingsCount', b.ratings_count, 'ratingsSum', b.ratings_sum) ORDER BY p.ord), '[]') AS rows
    FROM page p JOIN book_copies c ON c.id = p.copy_id AND c.is_available${live.map((l) => ` AND ${l}`).join('')}
    JOIN books b ON b.id = c.book_id JOIN authors au ON au.id = b.author_id JOIN book_types t ON t.id = b.type_id
  )`;
}

export interface BrowseStatement {
  text: string;
  values: unknown[];
}

/**
 * A category page: $1 the category's name (any letter case). One row: typeId (null: no such
 * category), size (how many copies the counts are over: the category's, or its author's in it when
 * one is chosen), sampled, matching, the facet counts and the page's rows. The counts are over the
 * first BROWSE_FACET_SAMPLE of those copies in sample order: all of them when size fits, else a
 * uniform sample whose counts the service scales (and says so). The author facet counts the
 * category's own sample, so other authors stay choosable once one is chosen.
 */
export function categoryBrowseSql(category: string, sort: BrowseSort, filters: BrowseFilters, skip: number, take: number): BrowseStatement {
  return categoryStatement(category, sort, filters, skip, take, true);
}

/**
 * The same page without its counts: typeId and the page's rows. The counts are the same for every
 * sort and page of a listing, and most of the statement's time (a pass over the category's sample),
 * so a page whose listing's counts are already known reads only its rows (catalog-service.ts).
 */
export function categoryPageSql(category: string, sort: BrowseSort, filters: BrowseFilters, skip: number, take: number): BrowseStatement {
  return categoryStatement(category, sort, filters, skip, take, false);
}

function categoryStatement(
  category: string,
  sort: BrowseSort,
  filters: BrowseFilters,
  skip: number,
  take: number,
  withCounts: boolean,
): BrowseStatement {
  const params = new Params([category]);
  const conds = conditions(filters, params, 'l');
  const author = withCounts && filters.authorId !== undefined ? params.add(filters.authorId, 'int') : null;
  const where = all(['l.type_id = (SELECT id FROM category)', ...Object.values(conds)]);
  const sample = (byAuthor: boolean) => `
    SELECT l.author_id, l.price, l.in_stock, l.rating, l.published_at FROM browse_listing l
    WHERE ${byAuthor ? `l.author_id = ${author} AND ` : ''}l.type_id = (SELECT id FROM category)
    ORDER BY l.sample_key, l.copy_id LIMIT ${BROWSE_FACET_SAMPLE}`;
  const samples = withCounts
    ? `
  sample AS MATERIALIZED (${sample(false)}),${
    author
      ? `
  author_sample AS MATERIALIZED (${sample(true)}),`
      : ''
  }`
    : '';
  const page = `
  page AS (
    SELECT l.copy_id, row_number() OVER () AS ord
    FROM (SELECT l.copy_id FROM browse_listing l WHERE ${where} ORDER BY ${ORDER[sort]('l', false)}
          LIMIT ${params.add(take, 'int')} OFFSET ${params.add(skip, 'int')}) l
  ),`;
  const facets = withCounts ? `${facetsSql(conds, author ? 'author_sample' : 'sample', 'l', 'sample')},` : '';
  const select = withCounts
    ? `
  SELECT (SELECT id FROM category) AS "typeId",
         (SELECT n FROM browse_counts WHERE type_id = (SELECT id FROM category) AND author_id = ${author ?? 0}) AS size,
         (SELECT n FROM browse_counts WHERE type_id = (SELECT id FROM category) AND author_id = 0) AS "categorySize",
         ${author ? '(SELECT count(*) FROM sample)' : 'counts.sampled'} AS "categorySampled",
         counts.*, author_counts.authors, rows.rows
  FROM counts, author_counts, rows`
    : `
  SELECT (SELECT id FROM category) AS "typeId", rows.rows FROM rows`;
  const text = `
  WITH category AS (SELECT id FROM book_types WHERE lower(name) = lower($1) LIMIT 1),${samples}${page}${facets}${pageRowsSql(filters, params)}${select}`;
  return { text, values: params.values };
}

/**
 * A search's results: the search statement's best SEARCH_CANDIDATES matches, then filtered, sorted and
 * paged. One row as the category's, with every count exact. Whether a candidate is in stock and how
 * many it sold are browse_listing's, refreshed at the sales' pace as for a category page (a copy new
 * since the last refresh counts as none sold); the page's own copies are read live.
 */
export function searchBrowseSql(terms: SearchTerms, sort: BrowseSort, filters: BrowseFilters, skip: number, take: number): BrowseStatement {
  const params = new Params(searchValues(terms, SEARCH_CANDIDATES));
  const conds = conditions(filters, params, 'm');
  const text = `${searchCtes(terms)},
  candidates AS (
    SELECT c.id AS copy_id, b.type_id, b.author_id, c.price, coalesce(l.in_stock, c.quantity > 0) AS in_stock,
           CASE WHEN b.ratings_count > 0 THEN round(b.ratings_sum::numeric / b.ratings_count, 1) ELSE 0 END AS rating,
           b.ratings_count, coalesce(l.units_sold, 0) AS units_sold, b.published_at,
           row_number() OVER (ORDER BY h.rank1, h.rank2, h.rank3, h.id) AS relevance
    FROM hits h JOIN book_copies c ON c.id = h.id JOIN books b ON b.id = c.book_id
    LEFT JOIN browse_listing l ON l.copy_id = c.id
  ),
  page AS (
    SELECT m.copy_id, row_number() OVER () AS ord
    FROM (SELECT m.copy_id FROM candidates m WHERE ${all(Object.values(conds))} ORDER BY ${ORDER[sort]('m', true)}
          LIMIT ${params.add(take, 'int')} OFFSET ${params.add(skip, 'int')}) m
  ),${facetsSql(conds, 'candidates', 'm')},${pageRowsSql({ inStock: filters.inStock }, params)}
  SELECT counts.*, author_counts.authors, rows.rows FROM counts, author_counts, rows`;
  return { text, values: params.values };
}

/** The shape the category's and the search's whole statements answer (numbers as node-postgres gives them: bigint counts as strings). */
export interface BrowseRow extends BrowseCounts {
  rows: {
    id: number;
    name: string;
    imageUrl: string | null;
    authorName: string;
    authorId: number;
    price: number;
    quantity: number;
    category: string;
    description: string | null;
    ratingsCount: number;
    ratingsSum: number;
  }[];
}

/** A listing's counts: the same for each of its sorts and pages. */
export interface BrowseCounts {
  typeId?: number | null;
  size?: number | null;
  /** The category's copies and how many of them its sample holds: what the author facet is counted over. */
  categorySize?: number | null;
  categorySampled?: string | number;
  sampled: string | number;
  matching: string | number;
  price: number[];
  rating: number[];
  year: number[];
  inStock: string | number;
  authors: { id: number; name: string; count: number }[];
}

/**
 * Suggestions for a typed prefix: $1 the prefix as a LIKE pattern, $2 its first 2, 3 or 5 letters
 * (the longest index that fits), $3 how many authors, $4 how many in all. The heaviest (most-rated)
 * authors and books whose key begins with the prefix; books whose copy was withdrawn since the last
 * refresh are skipped.
 */
const suggestionsSql = (letters: 2 | 3 | 5) => `
  WITH authors_found AS (
    SELECT DISTINCT ON (s.weight, s.id) s.id, s.weight FROM search_suggestions s
    WHERE s.kind = 'author' AND left(s.key, ${letters}) = $2 AND s.key LIKE $1
    ORDER BY s.weight DESC, s.id LIMIT $3
  ),
  books_found AS (
    SELECT s.id, s.weight FROM search_suggestions s
    WHERE s.kind = 'book' AND left(s.key, ${letters}) = $2 AND s.key LIKE $1
    ORDER BY s.weight DESC, s.id LIMIT $4
  )
  SELECT * FROM (
    (SELECT 'author' AS kind, a.id, a.full_name AS name, NULL AS "authorName", f.weight
     FROM authors_found f JOIN authors a ON a.id = f.id ORDER BY f.weight DESC, f.id)
    UNION ALL
    (SELECT 'book', c.id, b.name, a.full_name, f.weight
     FROM books_found f JOIN book_copies c ON c.id = f.id AND c.is_available JOIN books b ON b.id = c.book_id
     JOIN authors a ON a.id = b.author_id ORDER BY f.weight DESC, f.id)
  ) s`;
export const SUGGESTIONS_SQL = { 2: suggestionsSql(2), 3: suggestionsSql(3), 5: suggestionsSql(5) } as const;
export interface SuggestionRow {
  kind: 'author' | 'book';
  id: number;
  name: string;
  authorName: string | null;
  weight: string;
}

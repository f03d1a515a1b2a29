// Browsing (issue 30): every sort and filter combination on a category page and on search results,
// against a brute-force answer from the base tables in plain SQL: the same books in the same order on
// any page, the same total, and the same facet counts (exact on the seed catalog). Then the
// suggestions, the refusals, and that the spec's own routes answer as before.

import { normalizeForSearch } from '@bookshop/rules/browse';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { CATEGORIES } from '../../seed/seed-data.ts';
import {
  BROWSE_SORTS,
  type BrowseFilters,
  type BrowseSort,
  PRICE_BANDS,
  RATING_FLOORS,
  SEARCH_CANDIDATES,
  YEAR_BANDS,
} from '../src/modules/catalog/browse-queries.ts';
import { searchSql, searchValues } from '../src/modules/catalog/catalog-queries.ts';
import { searchTerms } from '../src/modules/catalog/catalog-service.ts';
import { createTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
const get = (url: string) => t.app.inject({ method: 'GET', url });
const RUNS = Number(process.env.BROWSE_RUNS ?? 60);

/** One available copy with everything a filter, a sort or a facet reads, straight from the base tables. */
interface Fact {
  id: number;
  authorId: number;
  price: number;
  inStock: boolean;
  rating: number;
  ratingsCount: number;
  unitsSold: number;
  year: number | null;
  relevance: number;
}
const FACTS_SQL = `
  SELECT c.id, b.author_id AS "authorId", c.price::float8 AS price, c.quantity > 0 AS "inStock",
         CASE WHEN b.ratings_count > 0 THEN round(b.ratings_sum::numeric / b.ratings_count, 1) ELSE 0 END::float8 AS rating,
         b.ratings_count AS "ratingsCount", c.units_sold AS "unitsSold", extract(year FROM b.published_at)::int AS year,
         b.published_at AS published, coalesce(u.relevance, 0)::int AS relevance
  FROM book_copies c JOIN books b ON b.id = c.book_id JOIN book_types t ON t.id = b.type_id
  LEFT JOIN unnest($2::int[]) WITH ORDINALITY AS u(id, relevance) ON u.id = c.id
  WHERE c.is_available AND ($1::text IS NULL OR lower(t.name) = lower($1)) AND ($2::int[] IS NULL OR u.id IS NOT NULL)`;

/** The reference page: the same filters and order written plainly over the base tables. */
function referenceSql(sort: BrowseSort, f: BrowseFilters, search: boolean) {
  const where = ['true'];
  if (f.priceMin !== undefined) where.push(`price >= ${f.priceMin}`);
  if (f.priceMax !== undefined) where.push(`price <= ${f.priceMax}`);
  if (f.inStock) where.push('"inStock"');
  if (f.minRating !== undefined) where.push(`rating >= ${f.minRating}`);
  if (f.yearFrom !== undefined) where.push(`year >= ${f.yearFrom}`);
  if (f.yearTo !== undefined) where.push(`year <= ${f.yearTo}`);
  if (f.authorId !== undefined) where.push(`"authorId" = ${f.authorId}`);
  const order = {
    relevance: search ? 'relevance' : '"ratingsCount" DESC, id',
    bestselling: '"unitsSold" DESC, id',
    'top-rated': 'rating DESC, "ratingsCount" DESC, id',
    newest: 'published DESC NULLS LAST, id',
    'price-asc': 'price, id',
    'price-desc': 'price DESC, id',
  }[sort];
  return `SELECT id, count(*) OVER () AS total FROM (${FACTS_SQL}) f WHERE ${where.join(' AND ')} ORDER BY ${order}`;
}

/** The facet counts by brute force: each dimension's values under the other dimensions' filters. */
function referenceFacets(facts: Fact[], f: BrowseFilters) {
  const passes = (x: Fact, skip: string) =>
    (skip === 'price' || ((f.priceMin === undefined || x.price >= f.priceMin) && (f.priceMax === undefined || x.price <= f.priceMax))) &&
    (skip === 'stock' || !f.inStock || x.inStock) &&
    (skip === 'rating' || f.minRating === undefined || x.rating >= f.minRating) &&
    (skip === 'year' ||
      ((f.yearFrom === undefined || (x.year !== null && x.year >= f.yearFrom)) &&
        (f.yearTo === undefined || (x.year !== null && x.year <= f.yearTo)))) &&
    (skip === 'author' || f.authorId === undefined || x.authorId === f.authorId);
  const count = (skip: string, value: (x: Fact) => boolean) => facts.filter((x) => passes(x, skip) && value(x)).length;
  const authors = new Map<number, number>();
  for (const x of facts) if (passes(x, 'author')) authors.set(x.authorId, (authors.get(x.authorId) ?? 0) + 1);
  return {
    price: PRICE_BANDS.map((b) => count('price', (x) => (b.min === null || x.price >= b.min) && (b.max === null || x.price <= b.max))),
    rating: RATING_FLOORS.map((r) => count('rating', (x) => x.rating >= r)),
    year: YEAR_BANDS.map((b) =>
      count('year', (x) => x.year !== null && (b.from === null || x.year >= b.from) && (b.to === null || x.year <= b.to)),
    ),
    inStock: count('stock', (x) => x.inStock),
    authors: [...authors].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, 10),
  };
}

const filtersArb = (authorIds: number[]) =>
  fc.record(
    {
      priceMin: fc.constantFrom(5, 7.5, 10, 12.99, 15, 20, 25, 30),
      priceMax: fc.constantFrom(8, 9.99, 10, 14.99, 19.99, 24.5, 30, 40),
      inStock: fc.boolean(),
      minRating: fc.constantFrom(0, 1, 2.5, 3, 3.75, 4, 4.2, 4.5),
      yearFrom: fc.integer({ min: 1800, max: 2017 }),
      yearTo: fc.integer({ min: 1850, max: 2020 }),
      authorId: fc.constantFrom(...authorIds),
    },
    { requiredKeys: [] },
  );

const query = (sort: BrowseSort, f: BrowseFilters, pageNumber: number, pageSize: number) => {
  const q = new URLSearchParams({ sort, pageNumber: String(pageNumber), pageSize: String(pageSize) });
  for (const [k, v] of Object.entries(f)) if (v !== undefined) q.set(k, String(v));
  return q.toString();
};

/**
 * One of `listings` (a category, a search text), a sort, filters among that listing's `authors`, a page
 * up to `maxPage` (0 stands for the last page) and a page size up to `maxPageSize`.
 */
const listingStateArb = <L extends string>(listings: readonly L[], authors: Map<L, number[]>, maxPage: number, maxPageSize: number) =>
  fc
    .constantFrom(...listings)
    .chain((listing) =>
      fc.tuple(
        fc.constant(listing),
        fc.constantFrom(...BROWSE_SORTS),
        filtersArb(authors.get(listing)!),
        fc.oneof(fc.integer({ min: 1, max: maxPage }), fc.constant(0)),
        fc.integer({ min: 1, max: maxPageSize }),
      ),
    );

/** The page `urlOf` answers for `asked` (0: the last page) is the reference's, with the reference's total and facets. */
async function checkAgainstReference(
  urlOf: (pageNumber: number) => string,
  facts: Fact[],
  f: BrowseFilters,
  asked: number,
  pageSize: number,
  reference: { id: number; total: string }[],
) {
  const pageNumber = asked || Math.max(1, Math.ceil(reference.length / pageSize));
  const res = await get(urlOf(pageNumber));
  expect(res.statusCode, res.body).toBe(200);
  const page = res.json().data;
  const total = reference.length;
  const lastPage = Math.max(1, Math.ceil(total / pageSize));
  const wanted = reference.slice((pageNumber - 1) * pageSize, pageNumber * pageSize).map((r) => r.id);
  expect(page.booksCopies.map((b: { id: number }) => b.id)).toEqual(wanted);
  // Each card shows the rating its filter and sort compared: the one a shopper reads.
  const factOf = new Map(facts.map((fact) => [fact.id, fact]));
  for (const card of page.booksCopies as { id: number; averageRating: number }[])
    expect(card.averageRating).toBe(factOf.get(card.id)!.rating);
  expect(page.total).toBe(total);
  expect(page.totalEstimated).toBe(false);
  expect(page.totalPages).toBe(total ? lastPage : 0);
  const facets = referenceFacets(facts, f);
  expect(page.facets.estimated).toBe(false);
  expect(page.facets.price.map((p: { count: number }) => p.count)).toEqual(facets.price);
  expect(page.facets.rating.map((p: { count: number }) => p.count)).toEqual(facets.rating);
  expect(page.facets.year.map((p: { count: number }) => p.count)).toEqual(facets.year);
  expect(page.facets.inStock).toBe(facets.inStock);
  expect(page.facets.authors.map((a: { id: number; count: number }) => [a.id, a.count])).toEqual(facets.authors);
}

describe('a category page in any sort and filters', () => {
  it('answers the same books in the same order as a brute-force reference, on any page, with exact counts', async () => {
    const facts = new Map<string, Fact[]>();
    const authors = new Map<string, number[]>();
    for (const category of CATEGORIES) {
      const rows = await t.db.query<Fact>(FACTS_SQL, [category, null]);
      facts.set(category, rows);
      const byCount = new Map<number, number>();
      for (const r of rows) byCount.set(r.authorId, (byCount.get(r.authorId) ?? 0) + 1);
      // The category's busiest authors, and one from elsewhere (no books here).
      authors.set(category, [
        ...[...byCount]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 4)
          .map(([id]) => id),
        803,
      ]);
    }
    await fc.assert(
      fc.asyncProperty(listingStateArb(CATEGORIES, authors, 4, 40), async ([category, sort, f, page, pageSize]) => {
        const reference = await t.db.query<{ id: number; total: string }>(referenceSql(sort, f, false), [category, null]);
        const urlOf = (pageNumber: number) =>
          `/api/public/book-copy/browse/${encodeURIComponent(category.toUpperCase())}?${query(sort, f, pageNumber, pageSize)}`;
        await checkAgainstReference(urlOf, facts.get(category)!, f, page, pageSize, reference);
      }),
      { numRuns: RUNS },
    );
  });

  it('answers 404 for an unknown category and 400 for an unknown sort or a bad filter', async () => {
    expect((await get('/api/public/book-copy/browse/Cooking')).statusCode).toBe(404);
    expect((await get('/api/public/book-copy/browse/Fantasy?sort=random')).statusCode).toBe(400);
    expect((await get('/api/public/book-copy/browse/Fantasy?minRating=6')).statusCode).toBe(400);
    expect((await get('/api/public/book-copy/browse/Fantasy?priceMin=Infinity')).statusCode).toBe(400);
  });

  it('reads the same first page as the spec route in its default order', async () => {
    const spec = (await get('/api/public/book-copy/by-type/Fantasy,3,15')).json().data;
    const browse = (await get('/api/public/book-copy/browse/Fantasy?pageNumber=3&pageSize=15')).json().data;
    expect(browse.booksCopies.map((b: { id: number }) => b.id)).toEqual(spec.booksCopies.map((b: { id: number }) => b.id));
    expect(browse.totalPages).toBe(spec.totalPages);
  });
});

describe('search results in any sort and filters', () => {
  const TEXTS = ['harry poter', 'tolkien', 'the', 'a', 'king', 'love war', 'stephen king'];

  it('answers the same books in the same order as a brute-force reference over its best matches', async () => {
    const candidates = new Map<string, number[]>();
    const facts = new Map<string, Fact[]>();
    const authors = new Map<string, number[]>();
    for (const text of TEXTS) {
      const terms = searchTerms(normalizeForSearch(text));
      const ids = (await t.db.query<{ id: number }>(searchSql(terms), searchValues(terms, SEARCH_CANDIDATES))).map((r) => r.id);
      candidates.set(text, ids);
      const rows = await t.db.query<Fact>(FACTS_SQL, [null, ids]);
      facts.set(text, rows);
      authors.set(text, [...new Set(rows.map((r) => r.authorId))].slice(0, 4).concat(803));
    }
    await fc.assert(
      fc.asyncProperty(listingStateArb(TEXTS, authors, 3, 30), async ([text, sort, f, page, pageSize]) => {
        const reference = await t.db.query<{ id: number; total: string }>(referenceSql(sort, f, true), [null, candidates.get(text)]);
        const urlOf = (pageNumber: number) =>
          `/api/public/book-copy/search/?text=${encodeURIComponent(text)}&${query(sort, f, pageNumber, pageSize)}`;
        await checkAgainstReference(urlOf, facts.get(text)!, f, page, pageSize, reference);
      }),
      { numRuns: RUNS },
    );
  });

  it('still finds Harry Potter first for "harry poter", pages past the first 50, and gives the total', async () => {
    const first = (await get('/api/public/book-copy/search/?text=harry%20poter&pageSize=5')).json().data;
    expect(first.booksCopies[0].name).toMatch(/^Harry Potter/);
    const spec = (await get('/api/public/book-copy/by-name/the')).json().data;
    const page = (await get('/api/public/book-copy/search/?text=the&pageNumber=11&pageSize=5')).json().data;
    expect(spec).toHaveLength(50);
    expect(page.total).toBeGreaterThan(50);
    expect(page.booksCopies).toHaveLength(5);
  });

  it('sorts Bestselling and counts what is in stock as browse_listing has them, as a category page does: sales move them at its refresh', async () => {
    const url = '/api/public/book-copy/search/?text=tolkien&sort=bestselling&pageSize=50';
    const first = (await get(url)).json().data;
    const ids = first.booksCopies.map((copy: { id: number }) => copy.id);
    const leastSold = ids.at(-1);
    const soldOut = first.booksCopies.find((copy: { id: number; quantity: number }) => copy.quantity > 0 && copy.id !== leastSold);
    const inStock = first.facets.inStock;
    try {
      // Sales and a sell-out by hand: the search reads neither until browse_listing is refreshed.
      await t.db.query('UPDATE book_copies SET units_sold = units_sold + 1000000 WHERE id = $1', [leastSold]);
      await t.db.query('UPDATE book_copies SET quantity = 0 WHERE id = $1', [soldOut.id]);
      const before = (await get(url)).json().data;
      // The copy sold out leaves the page at once (its own stock is read live) only when filtering by stock.
      expect(before.booksCopies.map((copy: { id: number }) => copy.id)).toEqual(ids);
      expect(before.facets.inStock).toBe(inStock);
      await t.app.catalogProjections.refresh(['browse_listing']);
      const after = (await get(url)).json().data;
      expect(after.booksCopies[0].id).toBe(leastSold);
      expect(after.facets.inStock).toBe(inStock - 1);
    } finally {
      await t.db.query('UPDATE book_copies SET units_sold = units_sold - 1000000 WHERE id = $1', [leastSold]);
      await t.db.query('UPDATE book_copies SET quantity = $2 WHERE id = $1', [soldOut.id, soldOut.quantity]);
      await t.app.catalogProjections.refresh(['browse_listing']);
    }
  });

  it('refuses an empty search', async () => {
    expect((await get('/api/public/book-copy/search/?text=%20%20')).statusCode).toBe(400);
    expect((await get('/api/public/book-copy/search/')).statusCode).toBe(400);
  });
});

describe('suggestions as one types', () => {
  it('answers nothing under 2 letters, and at most 8 authors and books whose names begin with the text', async () => {
    expect((await get('/api/public/book-copy/suggestions/?text=h')).json().data).toEqual({ authors: [], books: [] });
    const harry = (await get('/api/public/book-copy/suggestions/?text=Harry%20P')).json().data;
    expect(harry.books.length).toBeGreaterThan(0);
    expect(harry.authors.length + harry.books.length).toBeLessThanOrEqual(8);
    for (const b of harry.books) expect(normalizeForSearch(b.name)).toMatch(/^harry p/);
    const king = (await get('/api/public/book-copy/suggestions/?text=king')).json().data;
    expect(king.authors[0]).toMatchObject({ name: 'Stephen King' });
    expect(king.authors.length + king.books.length).toBe(8);
    const rowling = (await get('/api/public/book-copy/suggestions/?text=ROWL')).json().data;
    expect(rowling.authors.map((a: { name: string }) => a.name)).toContain('J.K. Rowling');
    expect((await get('/api/public/book-copy/suggestions/?text=zzqx')).json().data).toEqual({ authors: [], books: [] });
  });
});

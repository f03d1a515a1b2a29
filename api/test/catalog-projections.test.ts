// The catalog projections: short and common-word searches served by search_shortcuts, category
// and author pages by positions, and live availability over a projection that may lag. And what a
// change makes stale: held to the views' own definitions by rebuilding them all after the change.
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CatalogEvent } from '../src/modules/catalog/catalog-events.ts';
import { ALL_PROJECTIONS, type Projection, staleAfter } from '../src/plugins/catalog-projections.ts';
import { createTestApp, DEMO, type TestApp } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
const get = (url: string, cookie = '') => t.app.inject({ method: 'GET', url, headers: { cookie } });
type Detail = { id: number; name: string; author: string; ratingsCount: number };
const search = async (text: string) => (await get(`/api/public/book-copy/by-name/${encodeURIComponent(text)}`)).json().data as Detail[];
const words = (d: Detail) =>
  `${d.name} ${d.author}`
    .normalize('NFKD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u);

describe('searches too broad to rank per request', () => {
  it('a one-letter search lists the most-rated books with a word starting with it', async () => {
    const results = await search('z');
    expect(results.length).toBe(50);
    for (const r of results)
      expect(
        words(r).some((w) => w.startsWith('z')),
        r.name,
      ).toBe(true);
    const counts = results.map((r) => r.ratingsCount);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
  });

  it('two short words narrow each other: "ha po" finds Harry Potter', async () => {
    const results = await search('ha po');
    expect(results.length).toBeGreaterThan(0);
    expect(results[0]!.name).toMatch(/Harry Potter/);
    for (const r of results) {
      expect(words(r).some((w) => w.startsWith('ha'))).toBe(true);
      expect(words(r).some((w) => w.startsWith('po'))).toBe(true);
    }
  });

  it('the commonest words answer with the most-rated books that contain them', async () => {
    const results = await search('the');
    expect(results.length).toBe(50);
    for (const r of results) expect(words(r)).toContain('the');
  });

  it('a two-letter prefix nothing starts with is an empty answer, not a scan', async () => {
    expect(await search('qx')).toEqual([]);
  });

  it('typo-tolerant search still serves longer words', async () => {
    expect((await search('harry poter'))[0]!.name).toMatch(/Harry Potter/);
  });
});

describe('category pages from positions, with live availability', () => {
  it('the last page is full up to the count, and totalPages counts every available copy', async () => {
    const [{ n }] = (await t.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM book_copies c JOIN books b ON b.id = c.book_id JOIN book_types t ON t.id = b.type_id WHERE t.name = 'Art' AND c.is_available",
    )) as [{ n: number }];
    const first = (await get('/api/public/book-copy/by-type/Art,1,15')).json().data;
    expect(first.totalPages).toBe(Math.ceil(n / 15));
    const last = (await get(`/api/public/book-copy/by-type/Art,${first.totalPages},15`)).json().data;
    expect(last.booksCopies).toHaveLength(n - (first.totalPages - 1) * 15);
    expect((await get(`/api/public/book-copy/by-type/Art,${first.totalPages + 1},15`)).json().data).toEqual({
      booksCopies: [],
      totalPages: first.totalPages,
    });
  });

  it('a withdrawn copy leaves every list at once; the projections catch up after the refresh', async () => {
    const page = (await get('/api/public/book-copy/by-type/Mystery,1,15')).json().data;
    const victim = page.booksCopies[0].id as number;
    const { authorId } = (await get(`/api/public/book-copy/by-id/${victim}`)).json().data;
    const ids = (cards: { id: number }[]) => cards.map((c) => c.id);
    const authorPage = async () => (await get(`/api/public/authors/${authorId}?pageSize=100`)).json().data;
    const authorBefore = await authorPage();
    expect(ids(authorBefore.books)).toContain(victim);
    const admin = await t.login(DEMO.admin);
    const copy = (await get(`/api/employee/book-copy/by-id/${victim}`, admin)).json().data;
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/employee/book-copy/',
      headers: { cookie: admin },
      payload: { ...copy, isAvailable: false },
    });
    expect(res.statusCode).toBe(200);
    const now = (await get('/api/public/book-copy/by-type/Mystery,1,15')).json().data;
    expect(ids(now.booksCopies)).not.toContain(victim);
    expect(ids((await authorPage()).books)).not.toContain(victim);
    await t.app.catalogProjections.refresh();
    const refreshed = (await get('/api/public/book-copy/by-type/Mystery,1,15')).json().data;
    expect(refreshed.booksCopies).toHaveLength(15);
    expect(ids(refreshed.booksCopies)).not.toContain(victim);
    const authorAfter = await authorPage();
    expect(authorAfter.totalBooks).toBe(authorBefore.totalBooks - 1);
    expect(authorAfter.books).toHaveLength(authorBefore.books.length - 1);
    for (const list of ['new-releases', 'best-sellers', 'top-rated', 'recommended']) {
      const ids = (await get(`/api/public/book-copy/${list}/`)).json().data.map((c: { id: number }) => c.id);
      expect(ids).toHaveLength(20);
      expect(ids).not.toContain(victim);
    }
  });
});

describe('author pages from positions', () => {
  it("the busiest author's last page is full up to the count, in the order of their ratings", async () => {
    const [busiest] = await t.db.query<{ id: number; n: number }>(
      `SELECT b.author_id AS id, count(*)::int AS n FROM books b JOIN book_copies c ON c.book_id = b.id AND c.is_available
       GROUP BY b.author_id ORDER BY count(*) DESC, b.author_id LIMIT 1`,
    );
    const { id, n } = busiest!;
    const page = async (number: number) => (await get(`/api/public/authors/${id}?pageNumber=${number}&pageSize=4`)).json().data;
    const first = await page(1);
    expect(first).toMatchObject({ totalBooks: n, totalPages: Math.ceil(n / 4) });
    const pages = [first];
    for (let number = 2; number <= first.totalPages; number++) pages.push(await page(number));
    const books = pages.flatMap((p) => p.books as Detail[]);
    expect(books).toHaveLength(n);
    expect(pages.at(-1).books).toHaveLength(n - (first.totalPages - 1) * 4);
    expect(new Set(books.map((b) => b.id)).size).toBe(n);
    const counts = books.map((b) => b.ratingsCount);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    expect((await page(first.totalPages + 1)).books).toEqual([]);
  });

  it('a book added by hand reaches its author page with the refresh', async () => {
    const [author] = await t.db.query<{ id: number }>("INSERT INTO authors (full_name) VALUES ('Newly Published') RETURNING id");
    const [book] = await t.db.query<{ id: number }>(
      `INSERT INTO books (name, search_text, author_id, type_id) VALUES ('First Novel', 'first novel newly published', $1, 1) RETURNING id`,
      [author!.id],
    );
    const [copy] = await t.db.query<{ id: number }>(
      'INSERT INTO book_copies (book_id, price, quantity, is_available) VALUES ($1, 9.99, 3, true) RETURNING id',
      [book!.id],
    );
    const url = `/api/public/authors/${author!.id}`;
    expect((await get(url)).json().data).toMatchObject({ totalBooks: 0, books: [] });
    await t.app.catalogProjections.refresh(['author_listing']);
    const page = (await get(url)).json().data;
    expect(page).toMatchObject({ totalBooks: 1, totalPages: 1 });
    expect(page.books.map((b: Detail) => b.id)).toEqual([copy!.id]);
  });
});

it('the API refreshes every projection the schema has: its materialized views, and browse_listing kept from changes', async () => {
  const views = await t.db.query<{ name: string }>('SELECT matviewname AS name FROM pg_matviews WHERE schemaname = current_schema()');
  expect([...views.map((v) => v.name), 'browse_listing'].sort()).toEqual([...ALL_PROJECTIONS].sort());
});

describe('what an import makes stale', () => {
  const imported = (booksAdded: boolean, availabilityChanged: boolean): CatalogEvent => ({
    type: 'catalog.imported',
    changed: { booksAdded, availabilityChanged },
  });
  const sorted = (views: Projection[]) => [...views].sort();

  /**
   * Which projections `change` (SQL on the catalog) really changes: each one's rows rebuilt before and
   * after the change, in a transaction rolled back after, so the other tests see the catalog as it was.
   */
  async function projectionsChangedBy(change: string) {
    const client = new pg.Client({ connectionString: t.db.url });
    await client.connect();
    const fingerprints = async () => {
      const out = new Map<Projection, string>();
      for (const view of ALL_PROJECTIONS) {
        const { rows } = await client.query<{ f: string }>(
          `SELECT md5(coalesce(string_agg(v::text, '|' ORDER BY v::text), '')) AS f FROM ${view} v`,
        );
        out.set(view, rows[0]!.f);
      }
      return out;
    };
    // In the projections' own order: browse_counts is counted from browse_listing, a table caught up.
    const rebuild = async () => {
      for (const view of ALL_PROJECTIONS)
        await client.query(view === 'browse_listing' ? 'SELECT browse_listing_catch_up(1000000)' : `REFRESH MATERIALIZED VIEW ${view}`);
    };
    try {
      await client.query('BEGIN');
      // From projections of the catalog as it is (other tests change it and refresh only what they read).
      await rebuild();
      const before = await fingerprints();
      await client.query(change);
      await rebuild();
      const after = await fingerprints();
      return sorted(ALL_PROJECTIONS.filter((view) => before.get(view) !== after.get(view)));
    } finally {
      await client.query('ROLLBACK');
      await client.end();
    }
  }

  it('an import of prices and stock alone makes stale the lists that sort, filter or pool by them, and nothing else', async () => {
    const stale = staleAfter(imported(false, false));
    expect(sorted(stale)).toEqual(['browse_counts', 'browse_listing', 'home_list_candidates']);
    // What such an import writes: prices, and stock down to nothing for some copies and up for others.
    const changed = await projectionsChangedBy(
      'UPDATE book_copies SET price = price + 1, quantity = CASE WHEN id % 2 = 0 THEN 0 ELSE quantity + 5 END WHERE id % 3 = 0',
    );
    expect(changed).toContain('browse_listing');
    for (const view of changed) expect(stale, `${view} changed`).toContain(view);
  });

  it('an import that puts copies on or off sale makes every list of what is on sale stale, but not the vocabulary', async () => {
    const stale = staleAfter(imported(false, true));
    expect(sorted(stale)).toEqual(sorted(ALL_PROJECTIONS.filter((view) => view !== 'search_vocabulary')));
    const changed = await projectionsChangedBy('UPDATE book_copies SET is_available = NOT is_available WHERE id % 7 = 0');
    expect(changed).toEqual(expect.arrayContaining(['category_listing', 'author_listing', 'search_suggestions']));
    for (const view of changed) expect(stale, `${view} changed`).toContain(view);
  });

  it('an import that adds books, or does not say what it wrote, makes every projection stale', async () => {
    expect(sorted(staleAfter(imported(true, false)))).toEqual(sorted(ALL_PROJECTIONS));
    expect(sorted(staleAfter({ type: 'catalog.imported' }))).toEqual(sorted(ALL_PROJECTIONS));
    const changed = await projectionsChangedBy(`
      WITH book AS (INSERT INTO books (name, search_text, author_id, type_id)
                    SELECT 'Quizzical Zephyrs', 'quizzical zephyrs ' || search_text, author_id, type_id FROM books ORDER BY id LIMIT 1 RETURNING id)
      INSERT INTO book_copies (book_id, price, quantity, is_available) SELECT id, 9.99, 3, true FROM book`);
    expect(changed).toContain('search_vocabulary');
  });

  it('a restock makes stale what stock orders or hides, as an import of stock does', () => {
    expect(sorted(staleAfter({ type: 'copy.restocked', copyId: 1 }))).toEqual(sorted(staleAfter(imported(false, false))));
  });
});

// A projection's refresh forgets only the cached answers that read that projection: each cached
// route says which it reads (modules/catalog/cached-reads.ts), and this checks what each says against
// the SQL its answer's load runs, then that a refresh's notice forgets exactly those answers. Its own
// app and database, which nothing here writes to through the app (one copy's units sold by hand, no
// event): no scheduled refresh can send a notice of its own.
import { describe, expect, it } from 'vitest';
import { CACHED_READS } from '../src/modules/catalog/cached-reads.ts';
import { CATALOG_CHANGED_CHANNEL, refreshedNotice } from '../src/plugins/catalog-cache.ts';
import { ALL_PROJECTIONS, type Projection } from '../src/plugins/catalog-projections.ts';
import { catalogNoticeHeard, createTestApp, eventually, ownStatements } from './helpers.ts';

const own = ownStatements();
const t = await createTestApp({ env: { CATALOG_CACHE_MS: '60000' }, onQuery: own.onQuery });

/** The SQL a GET ran (none: answered from the cache). */
async function read(url: string) {
  const { answer: res, sent } = await own.of(() => t.app.inject({ url }));
  expect(res.statusCode, url).toBe(200);
  return sent;
}

const [category] = await t.db.query<{ id: number; name: string }>('SELECT id, name FROM book_types ORDER BY id LIMIT 1');
const [copy] = await t.db.query<{ id: number }>(
  'SELECT c.id FROM book_copies c WHERE c.is_available AND c.quantity > 0 ORDER BY c.id LIMIT 1',
);
const categoryName = encodeURIComponent(category!.name);

/**
 * Every read of CACHED_READS, with a route whose answer loads it (a category listing's counts are loaded
 * by its browse page, beside the page's own answer); a search both by a short word and by a long one.
 */
const ROUTES: { read: keyof typeof CACHED_READS; url: string }[] = [
  { read: 'types', url: '/api/public/book-copy/types/' },
  { read: 'categoryPage', url: `/api/public/book-copy/by-type/${categoryName},1,10` },
  { read: 'bookDetail', url: `/api/public/book-copy/by-id/${copy!.id}` },
  { read: 'search', url: '/api/public/book-copy/by-name/tolkien' },
  { read: 'search', url: '/api/public/book-copy/by-name/a' },
  { read: 'homeList', url: '/api/public/book-copy/new-releases/' },
  { read: 'homeList', url: '/api/public/book-copy/best-sellers/' },
  { read: 'homeList', url: '/api/public/book-copy/top-rated/' },
  { read: 'homeList', url: '/api/public/book-copy/recommended/' },
  { read: 'browseCategory', url: `/api/public/book-copy/browse/${categoryName}?sort=price-asc&inStock=true` },
  { read: 'browseCounts', url: `/api/public/book-copy/browse/${categoryName}?sort=newest&minRating=3` },
  { read: 'browseSearch', url: '/api/public/book-copy/search/?text=tolkien&sort=bestselling' },
  { read: 'browseSearch', url: '/api/public/book-copy/search/?text=a' },
  { read: 'suggestions', url: '/api/public/book-copy/suggestions/?text=to' },
];

/** The projections named in `sql`. */
const projectionsIn = (sql: string[]) => ALL_PROJECTIONS.filter((view) => sql.some((text) => new RegExp(`\\b${view}\\b`).test(text)));

/** Sends the notice a refresh of `view` sends, and waits until this instance has heard it. */
const announceRefresh = (view: Projection) => catalogNoticeHeard(t, refreshedNotice(view));

await eventually(() => t.app.catalogCache.active);

describe('catalog cache and the projections’ refreshes', () => {
  it('every cached route declares exactly the projections its SQL reads', async () => {
    expect(new Set(ROUTES.map((route) => route.read))).toEqual(new Set(Object.keys(CACHED_READS)));
    const readBy = new Map<string, Set<Projection>>();
    for (const { read: name, url } of ROUTES) {
      // A change that forgets everything, then the load's own SQL.
      await t.db.query('SELECT pg_notify($1, $2)', [CATALOG_CHANGED_CHANNEL, '']);
      let sql: string[] = [];
      await eventually(async () => {
        sql = await read(url);
        return sql.length > 0;
      });
      const declared: readonly Projection[] = CACHED_READS[name].projections;
      for (const view of projectionsIn(sql)) expect(declared, `${url} reads ${view}`).toContain(view);
      const seen = readBy.get(name) ?? new Set();
      for (const view of projectionsIn(sql)) seen.add(view);
      readBy.set(name, seen);
    }
    // Nor more than they read: a declared projection that no load of the read names forgets it for nothing.
    for (const [name, seen] of readBy)
      expect([...seen].sort(), name).toEqual([...CACHED_READS[name as keyof typeof CACHED_READS].projections].sort());
  });

  it('a refresh’s notice forgets the answers that read its projection and keeps the others', async () => {
    for (const view of ALL_PROJECTIONS) {
      const readers = ROUTES.filter((route) => (CACHED_READS[route.read].projections as readonly Projection[]).includes(view));
      for (const { url } of ROUTES) await eventually(async () => (await read(url)).length === 0);
      await announceRefresh(view);
      for (const { url } of ROUTES) {
        const forgotten = (await read(url)).length > 0;
        expect(forgotten, `${url} after a refresh of ${view}`).toBe(readers.some((route) => route.url === url));
      }
    }
  });

  it('a real catch-up of browse_listing keeps a book’s detail and forgets a category page; one with nothing to take forgets nothing', async () => {
    const detail = ROUTES.find((route) => route.read === 'bookDetail')!.url;
    const page = ROUTES.find((route) => route.read === 'browseCategory')!.url;
    await t.app.catalogProjections.refresh(['browse_listing']);
    for (const url of [detail, page]) await eventually(async () => (await read(url)).length === 0);
    // Nothing noted since: the listing is as it was, and so is every answer read from it (a notice
    // sent after the catch-up, and heard, would have been heard after any the catch-up sent).
    await t.app.catalogProjections.refresh(['browse_listing']);
    await announceRefresh('search_suggestions');
    expect(await read(page)).toEqual([]);
    // A copy sold, by hand (no event): noted, and taken by the next catch-up.
    await t.db.query('UPDATE book_copies SET units_sold = units_sold + 1 WHERE id = (SELECT min(copy_id) FROM browse_listing)');
    await t.app.catalogProjections.refresh(['browse_listing']);
    await eventually(async () => (await read(page)).length > 0);
    expect(await read(detail)).toEqual([]);
  });
});

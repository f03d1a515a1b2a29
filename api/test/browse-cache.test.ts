// Browsing with the catalog cache on (issue 30): every sort, filter and page is part of an answer's
// key, so two listings never share an answer, while the same listing spelled in another order (or
// its price and rating bounds with more decimals than they compare) is one answer; a repeated read
// costs no statement, and a catalog change is seen at once.
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { browseOptions } from '../src/modules/catalog/browse-listings.ts';
import { catalogRepository } from '../src/modules/catalog/catalog-repository.ts';
import { type BrowseOptions, catalogService } from '../src/modules/catalog/catalog-service.ts';
import { refreshedNotice, soldNotice } from '../src/plugins/catalog-cache.ts';
import { catalogNoticeHeard, createTestApp, ownStatements } from './helpers.ts';

const own = ownStatements();
const t = await createTestApp({ env: { CATALOG_CACHE_MS: '60000' }, onQuery: own.onQuery });
for (let waited = 0; !t.app.catalogCache.active && waited < 2_000; waited += 20) await sleep(20);

async function read(url: string) {
  const { answer: res, sent } = await own.of(() => t.app.inject({ url }));
  expect(res.statusCode, res.body).toBe(200);
  return { statements: sent.length, sql: sent, data: res.json().data };
}
const ids = (data: { booksCopies: { id: number }[] }) => data.booksCopies.map((b) => b.id);

/** Whether a read's statements counted the listing (only the whole statement reads browse_counts). */
const counted = (sql: string[]) => sql.some((text) => /\bbrowse_counts\b/.test(text));

/** A listing read whole by a service that keeps nothing (or by `service`), as JSON: what every answer must equal. */
const uncounted = catalogService(catalogRepository(t.app.catalogSql));
const readWhole = async (category: string, query: Partial<BrowseOptions>, service = uncounted) =>
  JSON.parse(JSON.stringify(await service.browseCategory(category, browseOptions(query))));

it('keys each answer by every parameter, answers a repeat from memory, and forgets on a change', async () => {
  expect(t.app.catalogCache.active).toBe(true);
  const cheap = await read('/api/public/book-copy/browse/Fantasy?sort=price-asc&inStock=true');
  const dear = await read('/api/public/book-copy/browse/Fantasy?sort=price-desc&inStock=true');
  expect(cheap.statements).toBe(1);
  expect(dear.statements).toBe(1);
  expect(ids(cheap.data)).not.toEqual(ids(dear.data));
  const rated = await read('/api/public/book-copy/browse/Fantasy?sort=price-asc&inStock=true&minRating=4');
  expect(rated.statements).toBe(1);
  const page2 = await read('/api/public/book-copy/browse/Fantasy?sort=price-asc&inStock=true&pageNumber=2');
  expect(ids(page2.data)).not.toEqual(ids(cheap.data));

  // The same listing, its parameters in another order and the category in another case: one answer.
  const again = await read('/api/public/book-copy/browse/FANTASY?inStock=true&sort=price-asc');
  expect(again.statements).toBe(0);
  expect(again.data).toEqual(cheap.data);
  const search = await read('/api/public/book-copy/search/?text=harry&sort=newest');
  expect((await read('/api/public/book-copy/search/?text=harry&sort=newest')).statements).toBe(0);
  expect(ids((await read('/api/public/book-copy/search/?text=harry&sort=price-asc')).data)).not.toEqual(ids(search.data));
  expect((await read('/api/public/book-copy/suggestions/?text=harr')).statements).toBe(1);
  expect((await read('/api/public/book-copy/suggestions/?text=harr')).statements).toBe(0);

  // A price change anywhere in the catalog: the next read goes to the database.
  const first = cheap.data.booksCopies[0];
  await t.db.query('UPDATE book_copies SET price = price + 100 WHERE id = $1', [first.id]);
  let fresh = await read('/api/public/book-copy/browse/Fantasy?sort=price-asc&inStock=true');
  for (let waited = 0; fresh.statements === 0 && waited < 2_000; waited += 20) {
    await sleep(20);
    fresh = await read('/api/public/book-copy/browse/Fantasy?sort=price-asc&inStock=true');
  }
  expect(fresh.statements).toBe(1);
  expect(fresh.data.booksCopies.find((b: { id: number }) => b.id === first.id)?.price ?? first.price + 100).toBe(first.price + 100);
});

it('keeps a bound in its precision: 10, 10.0 and 10.001 as a highest price are one answer, still the right one', async () => {
  const listing = (bounds: string) => `/api/public/book-copy/browse/Art?sort=price-desc&${bounds}`;
  const first = await read(listing('priceMax=10'));
  expect(first.statements).toBe(1);
  for (const spelling of ['10.0', '10.001', '10.009']) {
    const again = await read(listing(`priceMax=${spelling}`));
    expect(again.statements, spelling).toBe(0);
    expect(again.data).toEqual(first.data);
  }
  // A lowest price or rating with more decimals selects what it does rounded up: checked against the
  // projection compared with the value as asked, to the last decimal.
  const [{ price }] = (await t.db.query<{ price: string }>(
    "SELECT min(l.price)::text AS price FROM browse_listing l JOIN book_types ty ON ty.id = l.type_id WHERE ty.name = 'Art' AND l.price > 5",
  )) as [{ price: string }];
  const priceMin = `${price}1`;
  const minRating = '3.5001';
  const answer = await read(listing(`priceMin=${priceMin}&minRating=${minRating}`));
  const rounded = await read(listing(`priceMin=${(Number(price) + 0.01).toFixed(2)}&minRating=3.6`));
  expect(rounded.statements).toBe(0);
  const [{ total }] = (await t.db.query<{ total: number }>(
    `SELECT count(*)::int AS total FROM browse_listing l JOIN book_types ty ON ty.id = l.type_id
     WHERE ty.name = 'Art' AND l.price >= $1::numeric AND l.rating >= $2::numeric`,
    [priceMin, minRating],
  )) as [{ total: number }];
  expect(total).toBeGreaterThan(0);
  expect(answer.data.total).toBe(total);
  expect(answer.data.totalEstimated).toBe(false);
  for (const copy of answer.data.booksCopies) expect(copy.price).toBeGreaterThan(Number(price));
});

it('shares a listing’s counts across its sorts and pages: they read only their rows, and answer as a whole read does', async () => {
  await catalogNoticeHeard(t, ''); // nothing kept from the tests before
  const listing = (more: string) => `/api/public/book-copy/browse/Fantasy?yearFrom=1950&inStock=true${more}`;
  const listingWhole = (query: Partial<BrowseOptions>) => readWhole('Fantasy', { yearFrom: 1950, inStock: true, ...query });

  const first = await read(listing('&sort=newest'));
  expect(first.statements).toBe(1);
  expect(counted(first.sql)).toBe(true);
  expect(first.data).toEqual(await listingWhole({ sort: 'newest' }));
  const others = [
    ['&sort=price-asc', { sort: 'price-asc' }],
    ['&sort=bestselling&pageNumber=2', { sort: 'bestselling', pageNumber: 2 }],
    ['&pageNumber=3', { pageNumber: 3 }],
  ] as const;
  for (const [more, query] of others) {
    const page = await read(listing(more));
    expect(page.statements, more).toBe(1);
    expect(counted(page.sql), more).toBe(false);
    expect(page.data, more).toEqual(await listingWhole(query));
    expect(page.data.facets).toEqual(first.data.facets);
  }
  // Other filters are another listing, with counts of their own.
  expect(counted((await read(listing('&minRating=3&sort=price-asc'))).sql)).toBe(true);

  // A sale forgets the pages that show the copy, never the counts (their stock is browse_listing's).
  const shown = first.data.booksCopies[0].id as number;
  await catalogNoticeHeard(t, soldNotice([shown]));
  const afterSale = await read(listing('&sort=newest'));
  expect(afterSale.statements).toBe(1);
  expect(counted(afterSale.sql)).toBe(false);

  // A catch-up of browse_listing forgets them.
  await catalogNoticeHeard(t, refreshedNotice('browse_listing'));
  const afterCatchUp = await read(listing('&sort=top-rated'));
  expect(counted(afterCatchUp.sql)).toBe(true);
  expect(afterCatchUp.data).toEqual(await listingWhole({ sort: 'top-rated' }));

  // Two pages read at once while the counts are not kept: one reads them whole, the other its page
  // alone (sharing that load of the counts, or finding them kept); each answers as a whole read does.
  await catalogNoticeHeard(t, refreshedNotice('browse_listing'));
  const {
    answer: [cheapest, dearest],
    sent,
  } = await own.of(() =>
    Promise.all([t.app.inject(listing('&sort=price-asc&pageNumber=2')), t.app.inject(listing('&sort=price-desc&pageNumber=2'))]),
  );
  expect(sent.map((text) => counted([text])).sort()).toEqual([false, true]);
  expect(cheapest.json().data).toEqual(await listingWhole({ sort: 'price-asc', pageNumber: 2 }));
  expect(dearest.json().data).toEqual(await listingWhole({ sort: 'price-desc', pageNumber: 2 }));
});

it('keys a listing’s counts by every filter, and reads a page alone with any of them as a whole read does', async () => {
  const [{ author }] = (await t.db.query<{ author: number }>(
    `SELECT l.author_id AS author FROM browse_listing l JOIN book_types ty ON ty.id = l.type_id
     WHERE ty.name = 'Fantasy' GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1`,
  )) as [{ author: number }];
  await catalogNoticeHeard(t, ''); // nothing kept from the tests before
  const base = '/api/public/book-copy/browse/Fantasy?sort=newest';
  await read(base);
  // Each filter alone, one again with another value, and all of them: each a listing of its own.
  const filters: Partial<BrowseOptions>[] = [
    { priceMin: 5 },
    { priceMin: 20 },
    { priceMax: 40 },
    { inStock: true },
    { minRating: 1 },
    { yearFrom: 1900 },
    { yearTo: 2030 },
    { authorId: author },
    { priceMin: 5, priceMax: 40, inStock: true, minRating: 1, yearFrom: 1900, yearTo: 2030 },
  ];
  for (const filter of filters) {
    const query = Object.entries(filter)
      .map(([key, value]) => `&${key}=${value}`)
      .join('');
    // Its own counts, read whole the first time; then another sort reads its page alone.
    expect(counted((await read(`${base}${query}`)).sql), query).toBe(true);
    const page = await read(`${base.replace('newest', 'price-desc')}${query}`);
    expect(counted(page.sql), query).toBe(false);
    expect(page.data.booksCopies.length, query).toBeGreaterThan(0);
    expect(page.data, query).toEqual(await readWhole('Fantasy', { sort: 'price-desc', ...filter }));
  }
});

it('keeps no counts for a category there is none of, and reads a renamed category whole', async () => {
  await catalogNoticeHeard(t, ''); // nothing kept from the tests before
  for (let i = 0; i < 2; i++) {
    const { answer: res, sent } = await own.of(() => t.app.inject('/api/public/book-copy/browse/No%20Such%20Shelf?sort=newest'));
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe("There is no category named 'No Such Shelf'.");
    // The whole statement each time: nothing was kept of the first.
    expect(sent.length, 'each time').toBe(1);
    expect(counted(sent), 'each time').toBe(true);
  }
  // Two spellings at once share one load of the counts; each refusal names its own.
  const spellings = ['No Such Shelf', 'NO SUCH SHELF'];
  const refusals = await Promise.all(
    spellings.map((name, i) => t.app.inject(`/api/public/book-copy/browse/${encodeURIComponent(name)}?sort=${['newest', 'price-asc'][i]}`)),
  );
  expect(refusals.map((res) => res.json().error.message)).toEqual(spellings.map((name) => `There is no category named '${name}'.`));

  // Counts kept for a category that has since been renamed: the page's read sees another id, so the name is read whole.
  const repo = catalogRepository(t.app.catalogSql);
  const options = browseOptions({ sort: 'newest' });
  const { rows: _shown, ...artCounts } = await repo.browseCategory('Art', 'newest', options, 0, 15);
  const keptForAnother = catalogService(repo, async () => artCounts);
  expect(await readWhole('Fantasy', { sort: 'newest' }, keptForAnother)).toEqual(await readWhole('Fantasy', { sort: 'newest' }));
  await expect(keptForAnother.browseCategory('No Such Shelf', options)).rejects.toMatchObject({ statusCode: 404 });
});

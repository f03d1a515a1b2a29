// Category pages a crawler can read and a shopper can share filtered (issue 30): the category's name
// in the title and heading, one canonical address, schema.org CollectionPage, and the very books the
// browse call answers for the address's sort, filters and page, in its order; 404 for no category;
// a page past the end redirected to the last (spec 2.5's clamp); whatever a query string holds,
// escaped and never a 5xx. Search results the same way, named by their text, kept out of indexes.

import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { bookPagePath } from '@bookshop/rules';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, ownStatements, type TestApp } from './helpers.ts';

const ORIGIN = 'https://shop.example.com';
const SHELL =
  '<!doctype html><html><head><meta name="description" content="Bookshop: thousands of books." /><title>Bookshop</title>' +
  '</head><body><div id="root"></div></body></html>';

let dist: string;
let t: TestApp;
beforeAll(async () => {
  dist = mkdtempSync(path.join(os.tmpdir(), 'web-dist-'));
  writeFileSync(path.join(dist, 'index.html'), SHELL);
  writeFileSync(path.join(dist, 'shell.html'), SHELL);
  t = await createTestApp({ env: { WEB_DIST: dist, PUBLIC_URL: ORIGIN } });
});

const get = (url: string) => t.app.inject({ method: 'GET', url });
const jsonLd = (html: string) => JSON.parse(/<script type="application\/ld\+json"[^>]*>(.*?)<\/script>/s.exec(html)![1]!);
/** The book links of the body's first paint, in order. */
const listedPaths = (html: string) => [...html.matchAll(/<li><a href="([^"]+)">/g)].map((match) => match[1]);

interface Listing {
  booksCopies: { id: number; name: string }[];
  total: number;
  totalPages: number;
}
/** The browse call as the storefront makes it (its own spelling of the state: inStock=true, pageNumber). */
async function apiListing(category: string, query: string): Promise<Listing> {
  const res = await get(`/api/public/book-copy/browse/${category}?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}
/** The search call as the storefront makes it. */
async function apiSearch(text: string, query: string): Promise<Listing> {
  const res = await get(`/api/public/book-copy/search/?${new URLSearchParams({ text })}&${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

/** The page's books are the API's, in its order: in the body's links and in the JSON-LD's list. */
function expectSameBooks(html: string, listing: Listing, firstPosition = 1) {
  expect(listing.booksCopies.length).toBeGreaterThan(0); // else the comparison proves nothing
  expect(listedPaths(html)).toEqual(listing.booksCopies.map((book) => bookPagePath(book.id, book.name)));
  const list = jsonLd(html).mainEntity;
  expect(list['@type']).toBe('ItemList');
  expect(list.numberOfItems).toBe(listing.total);
  expect(list.itemListElement).toEqual(
    listing.booksCopies.map((book, i) => ({
      '@type': 'ListItem',
      position: firstPosition + i,
      name: book.name,
      url: ORIGIN + bookPagePath(book.id, book.name),
    })),
  );
}

/** A page of the server's own, as HTML with exactly one title, this one. */
async function htmlPage(url: string, title: string) {
  const res = await get(url);
  expect(res.statusCode, url).toBe(200);
  expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(res.body).toContain(`<title>${title}</title>`);
  expect(res.body.match(/<title>/g)).toHaveLength(1);
  return res.body;
}

describe('a category page', () => {
  it("names the category in the server's HTML and lists the books of its first page, as the browse call does", async () => {
    const html = await htmlPage('/Fantasy', 'Fantasy · Bookshop');
    expect(html).toContain('<h1>Fantasy</h1>');
    expect(html).toContain(`<link rel="canonical" href="${ORIGIN}/fantasy" data-category-page="fantasy" />`);
    expect(html).toContain('<meta property="og:title" content="Fantasy" data-category-page="fantasy" />');
    expect(jsonLd(html)).toMatchObject({ '@type': 'CollectionPage', name: 'Fantasy', url: `${ORIGIN}/fantasy` });
    const listing = await apiListing('Fantasy', 'pageNumber=1&pageSize=15');
    expect(html).toContain(`<p>${listing.total.toLocaleString('en-US')} books on sale</p>`);
    expectSameBooks(html, listing);
    // Any letter case is the same page (spec 2.1: the top bar says /Fantasy, Show More /fantasy).
    expect(listedPaths((await get('/fantasy')).body)).toEqual(listedPaths(html));
  });

  it('lists the books the browse call answers for the sort, filters and page in the address, with the canonical of the category', async () => {
    const plain = await apiListing('Fantasy', 'pageNumber=1&pageSize=15');
    const cheapRated = await apiListing('Fantasy', 'sort=price-asc&inStock=true&minRating=3.5&pageNumber=1&pageSize=15');
    const res = await get('/fantasy?sort=price-asc&inStock=1&minRating=3.5');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<h1>Fantasy</h1>');
    expect(res.body).toContain(`<link rel="canonical" href="${ORIGIN}/fantasy" data-category-page="fantasy" />`);
    expect(res.body).toContain(`<p>${cheapRated.total.toLocaleString('en-US')} books that match the chosen filters</p>`);
    expectSameBooks(res.body, cheapRated);
    expect(cheapRated.booksCopies.map((b) => b.id)).not.toEqual(plain.booksCopies.map((b) => b.id)); // the state mattered

    const newest = await apiListing('fantasy', 'sort=newest&yearFrom=1990&pageNumber=2&pageSize=15');
    const second = await get('/FANTASY?sort=newest&yearFrom=1990&page=2');
    expect(second.statusCode).toBe(200);
    expectSameBooks(second.body, newest, 16);
  });

  it('answers a filter that leaves no book with the page saying so', async () => {
    const res = await get('/Fantasy?priceMin=99999&priceMax=99999');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<h1>Fantasy</h1>');
    expect(res.body).toContain('No books match these filters.');
    expect(listedPaths(res.body)).toEqual([]);
  });

  it('redirects a page past the last to the last page, with the same sort and filters, whose books the browse call answers', async () => {
    const past = await apiListing('Fantasy', 'sort=newest&inStock=true&pageNumber=99999&pageSize=15');
    expect(past.booksCopies).toEqual([]);
    expect(past.totalPages).toBeGreaterThan(1);
    const res = await get('/fantasy?sort=newest&inStock=1&page=99999');
    expect(res.statusCode).toBe(302);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers.location).toBe(`/fantasy?sort=newest&inStock=1&page=${past.totalPages}`);
    const last = await get(res.headers.location as string);
    expect(last.statusCode).toBe(200);
    const lastListing = await apiListing('Fantasy', `sort=newest&inStock=true&pageNumber=${past.totalPages}&pageSize=15`);
    expectSameBooks(last.body, lastListing, (past.totalPages - 1) * 15 + 1);
    expect(last.body).not.toContain('No books');

    // The page in range is not moved; a filter that leaves nothing goes to its first page and says so.
    expect((await get(`/Fantasy?sort=newest&inStock=1&page=${past.totalPages}`)).statusCode).toBe(200);
    const none = await get('/Fantasy?priceMin=99999&priceMax=99999&page=4');
    expect(none.statusCode).toBe(302);
    expect(none.headers.location).toBe('/Fantasy?priceMin=99999&priceMax=99999');
  });

  it('sends an empty category past its end to its first page, which says what the spec says', async () => {
    await t.db.query("INSERT INTO book_types (name) VALUES ('Empty shelf')");
    const res = await get('/Empty%20shelf?page=3&sort=newest');
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/Empty%20shelf?sort=newest');
    const first = await get(res.headers.location as string);
    expect(first.statusCode).toBe(200);
    expect(first.body).toContain('<p>No books in this category yet.</p>');
  });

  it('ignores what the storefront would ignore in a query string, escapes the rest, and never fails', async () => {
    const plain = await apiListing('Fantasy', 'pageNumber=1&pageSize=15');
    const hostile = [
      'sort=%3Cscript%3Ealert(1)%3C/script%3E',
      'priceMin=-1&priceMax=1e9&minRating=abc&yearFrom=2e3&yearTo=99999&authorId=0x10&page=0&inStock=yes',
      'authorId=%22%3E%3Cscript%3Ealert(1)%3C/script%3E&page=%27%3E%3Cimg%20src=x%20onerror=alert(1)%3E',
      'sort=newest&sort=%3Cx%3E&priceMin[]=1&__proto__[x]=1&constructor=1',
      `q=${'%3Cscript%3E'.repeat(500)}`,
    ];
    for (const query of hostile) {
      const res = await get(`/Fantasy?${query}`);
      expect(res.statusCode, query).toBeLessThan(500);
      expect(res.body, query).not.toMatch(/<script>alert|<img src=x|<x>/i);
      if (query.startsWith('sort=newest')) continue; // a valid sort survives beside the junk
      expect(res.statusCode, query).toBe(200);
      expect(listedPaths(res.body), query).toEqual(plain.booksCopies.map((b) => bookPagePath(b.id, b.name)));
    }
    // A NUL character is refused everywhere, a page's address included (PostgreSQL text cannot hold one).
    const nul = await get('/Fantasy?yearFrom=%00');
    expect(nul.statusCode).toBe(400);
    expect(nul.json().error.code).toBe('VALIDATION');
    const newest = await apiListing('Fantasy', 'sort=newest&pageNumber=1&pageSize=15');
    expect(listedPaths((await get(`/Fantasy?${hostile[3]}`)).body)).toEqual(newest.booksCopies.map((b) => bookPagePath(b.id, b.name)));
  });

  it("keeps a hostile category's name inside its markup", async () => {
    const name = 'Evil </title><script>alert(1)</script> "Q"';
    await t.db.query('INSERT INTO book_types (name) VALUES ($1)', [name]);
    const res = await get(`/${encodeURIComponent(name)}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('<script>alert(1)');
    expect(res.body).toContain('<title>Evil &lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt; &quot;Q&quot; · Bookshop</title>');
    expect(res.body).toContain('<h1>Evil &lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt; &quot;Q&quot;</h1>');
    expect(res.body).toContain('No books in this category yet.');
    expect(jsonLd(res.body).name).toBe(name);
  });

  it("answers 404 for a name that is no category, and serves the app's own screens as before", async () => {
    for (const url of ['/no-such-category', '/%3Cscript%3Ealert(1)%3C%2Fscript%3E?sort=newest', '/favicon.ico']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(res.body).toContain('<meta name="robots" content="noindex" />');
      expect(res.body).toContain('<div id="root"></div>');
      expect(res.body).not.toContain('<script>alert');
    }
    for (const url of ['/login', '/Cart', '/Detail?id=1', '/searchresult', '/dashboard', '/authors', '/employeeaccount']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe(SHELL);
    }
    const api = await get('/api');
    expect(api.statusCode).toBe(404);
    expect(api.json().error.code).toBe('NOT_FOUND');
  });

  it("with the catalog cache on, is the browse call's own answer: the storefront's call after it costs no statement", async () => {
    const own = ownStatements();
    const cached = await createTestApp({
      env: { WEB_DIST: dist, PUBLIC_URL: ORIGIN, CATALOG_CACHE_MS: '60000' },
      onQuery: own.onQuery,
    });
    for (let waited = 0; !cached.app.catalogCache.active && waited < 2_000; waited += 20) await sleep(20);
    expect(cached.app.catalogCache.active).toBe(true);
    // The page reads the database (so the count sees this app's statements), and keeps its answer.
    const { answer: page, sent: sentByPage } = await own.of(() => cached.app.inject({ url: '/Fantasy?sort=top-rated&inStock=1' }));
    expect(page.statusCode).toBe(200);
    expect(sentByPage.length).toBeGreaterThan(0);
    const { answer: call, sent } = await own.of(() =>
      cached.app.inject({ url: '/api/public/book-copy/browse/Fantasy?sort=top-rated&inStock=true&pageNumber=1&pageSize=15' }),
    );
    expect(call.statusCode).toBe(200);
    expect(sent).toEqual([]);
    const listing = call.json().data as Listing;
    expect(listedPaths(page.body)).toEqual(listing.booksCopies.map((b) => bookPagePath(b.id, b.name)));

    // A search's page and the storefront's search call after it: one answer.
    const results = await cached.app.inject({ url: '/searchresult?q=%20the%20&sort=price-asc' });
    expect(results.statusCode).toBe(200);
    const { answer: search, sent: sentBySearch } = await own.of(() =>
      cached.app.inject({ url: '/api/public/book-copy/search/?text=the&sort=price-asc&pageNumber=1&pageSize=15' }),
    );
    expect(search.statusCode).toBe(200);
    expect(sentBySearch).toEqual([]);
    expect(listedPaths(results.body)).toEqual((search.json().data as Listing).booksCopies.map((b) => bookPagePath(b.id, b.name)));
  });
});

describe("a search's results page", () => {
  const ogContent = (html: string, property: string) =>
    new RegExp(`<meta property="${property}" content="([^"]*)" data-search-page="results" />`).exec(html)?.[1];

  it("names the text in its head, lists the search call's first page, and asks to stay out of indexes, with no canonical", async () => {
    const html = await htmlPage('/searchresult?q=harry%20poter', 'Search: harry poter · Bookshop');
    expect(html).toContain('<meta name="robots" content="noindex" data-search-page="results" />');
    expect(html).not.toContain('rel="canonical"');
    expect(ogContent(html, 'og:title')).toBe('Search: harry poter');
    expect(ogContent(html, 'og:url')).toBe(`${ORIGIN}/searchresult?q=harry+poter`);
    expect(jsonLd(html)).toMatchObject({ '@type': 'SearchResultsPage', name: 'Search: harry poter' });
    expect(html).toContain('<h1>Search Results for <q>harry poter</q></h1>');
    const listing = await apiSearch('harry poter', 'pageNumber=1&pageSize=15');
    expect(html).toContain(`<p>${listing.total.toLocaleString('en-US')} books</p>`);
    expectSameBooks(html, listing);
    expect(html).toContain(`<meta name="description" content="${listing.total} books found for “harry poter” at Bookshop." />`);
    // Any letter case is the same screen, as in the storefront; robots.txt still keeps crawlers out.
    expect(listedPaths((await get('/SearchResult?q=harry%20poter')).body)).toEqual(listedPaths(html));
    expect((await get('/robots.txt')).body).toContain('Disallow: /searchresult');
  });

  it('lists the books the search call answers for the sort, filters and page, and redirects a page past the end to the last', async () => {
    const second = await apiSearch('the', 'sort=price-asc&inStock=true&pageNumber=2&pageSize=15');
    const res = await get('/searchresult?q=the&sort=price-asc&inStock=1&page=2');
    expect(res.statusCode).toBe(200);
    expectSameBooks(res.body, second, 16);
    expect(ogContent(res.body, 'og:url')).toBe(`${ORIGIN}/searchresult?q=the`);

    const past = await get('/searchresult?q=the&sort=price-asc&inStock=1&page=9999');
    expect(past.statusCode).toBe(302);
    expect(past.headers.location).toBe(`/searchresult?q=the&sort=price-asc&inStock=1&page=${second.totalPages}`);
    const last = await apiSearch('the', `sort=price-asc&inStock=true&pageNumber=${second.totalPages}&pageSize=15`);
    expectSameBooks((await get(past.headers.location as string)).body, last, (second.totalPages - 1) * 15 + 1);
  });

  it('says when nothing was found, in the words of the storefront', async () => {
    const nothing = await apiSearch('qzxqzxqzx', 'pageNumber=1&pageSize=15');
    expect(nothing.total).toBe(0);
    const res = await get('/searchresult?q=qzxqzxqzx');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<main><p>No results found for <strong>qzxqzxqzx</strong></p></main>');
    expect(res.body).toContain('<meta name="robots" content="noindex" data-search-page="results" />');
  });

  it('escapes a hostile text everywhere, cuts an over-long one as the storefront does, refuses what the search refuses, and never fails', async () => {
    const hostile = '</title><script>alert(1)</script>"\'><img src=x onerror=alert(1)>';
    const res = await get(`/searchresult?${new URLSearchParams({ q: hostile })}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toMatch(/<script>alert|<img src=x/);
    expect(res.body).toContain(
      '<title>Search: &lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&gt;&lt;img src=x onerror=alert(1)&gt; · Bookshop</title>',
    );
    expect(jsonLd(res.body).name).toBe(`Search: ${hostile}`);

    const long = 'harry '.repeat(100);
    const cut = long.trim().slice(0, 200).trim();
    const longPage = await get(`/searchresult?${new URLSearchParams({ q: long })}`);
    expect(longPage.statusCode).toBe(200);
    expect(longPage.body).toContain(`<title>Search: ${cut} · Bookshop</title>`);
    expect(listedPaths(longPage.body)).toEqual(
      (await apiSearch(cut, 'pageNumber=1&pageSize=15')).booksCopies.map((b) => bookPagePath(b.id, b.name)),
    );

    // No letter or digit: the search call's own refusal, as a page kept out of indexes.
    const punctuation = await get('/searchresult?q=%21%21%21');
    expect(punctuation.statusCode).toBe(400);
    expect(punctuation.body).toContain('<meta name="robots" content="noindex" />');
    expect(punctuation.body).toContain('Please enter a title or an author to search for.');
    expect((await get('/searchresult?q=x%00')).statusCode).toBe(400);
    for (const query of ['q=', 'q=%20%20', '', 'q[]=x', 'page=%3Cx%3E']) {
      const shell = await get(`/searchresult?${query}`);
      expect(shell.statusCode, query).toBe(200);
      expect(shell.body, query).toBe(SHELL); // no text: the app shows the one it kept
    }
  });
});

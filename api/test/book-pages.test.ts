// Book pages a person can share and a crawler can read: the book in the page's head, one canonical
// address, the sitemap in files of a fixed size, and robots.txt.
import { bookPagePath } from '@bookshop/rules';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { SITEMAP_BOOKS_PER_FILE } from '../src/modules/catalog/catalog-service.ts';
import { createPagesTestApp, createTestApp, jsonLd, SHOP_ORIGIN as ORIGIN, type TestApp } from './helpers.ts';

const SHELL =
  '<!doctype html><html><head><meta name="description" content="Bookshop: thousands of books." /><title>Bookshop</title>' +
  '<style>body{margin:0}</style></head><body><div id="root"></div></body></html>';

let t: TestApp;
/** A book on sale whose every text tries to break out of the page's markup. */
let hostile: { id: number; path: string };
let withdrawnId: number;

beforeAll(async () => {
  t = await createPagesTestApp(SHELL);

  const [book] = await t.db.query<{ id: number }>(
    `INSERT INTO books (name, description, isbn13, search_text, author_id, type_id, ratings_count, ratings_sum)
     VALUES ($1, $2, '9780000000019', 'hostile', 1, 1, 4, 18) RETURNING id`,
    ['Tags </script><script>alert(1)</script> & "Quotes"', 'A <b>bold</b> "blurb" </script>'],
  );
  const [copy] = await t.db.query<{ id: number }>('INSERT INTO book_copies (book_id, quantity, price) VALUES ($1, 0, 9.5) RETURNING id', [
    book!.id,
  ]);
  hostile = { id: copy!.id, path: `/books/${copy!.id}-tags-script-script-alert-1-script-quotes` };
  const [withdrawn] = await t.db.query<{ id: number }>(
    'INSERT INTO book_copies (book_id, quantity, price, is_available) VALUES (1, 5, 10, false) RETURNING id',
  );
  withdrawnId = withdrawn!.id;
});

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

describe('a book page', () => {
  it("carries the book's title, description, canonical link, Open Graph tags and schema.org Book", async () => {
    const [seed] = await t.db.query<{ id: number; name: string; author: string; isbn13: string }>(
      `SELECT c.id, b.name, a.full_name AS author, b.isbn13 FROM book_copies c JOIN books b ON b.id = c.book_id JOIN authors a ON a.id = b.author_id
       WHERE c.is_available AND c.quantity > 0 AND b.isbn13 IS NOT NULL AND b.name ~ '^[A-Za-z ]+$' ORDER BY c.id LIMIT 1`,
    );
    const detail = (await get(`/api/public/book-copy/by-id/${seed!.id}`)).json().data;
    const url = `${ORIGIN}/books/${seed!.id}-${seed!.name.toLowerCase().trim().replace(/ +/g, '-')}`;

    const page = await get(url.slice(ORIGIN.length));
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    const html = page.body;
    expect(html).toContain(`<title>${seed!.name} by ${seed!.author} · Bookshop</title>`);
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(html.match(/<meta name="description"/g)).toHaveLength(1);
    const mark = `data-book-page="${seed!.id}"`;
    expect(html).toContain(`<link rel="canonical" href="${url}" ${mark} />`);
    expect(html).toContain(`<meta property="og:url" content="${url}" ${mark} />`);
    expect(html).toContain(`<meta property="og:title" content="${seed!.name} by ${seed!.author}" ${mark} />`);
    expect(html).toContain(`<meta property="og:type" content="book" ${mark} />`);
    expect(html).toContain('<div id="root"></div>'); // the app still renders the screen

    expect(jsonLd(html)).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Book',
      name: seed!.name,
      author: { '@type': 'Person', name: seed!.author },
      isbn: seed!.isbn13,
      url,
      offers: { '@type': 'Offer', price: detail.price.toFixed(2), priceCurrency: 'USD', availability: 'https://schema.org/InStock' },
    });
  });

  it('keeps every text of the book inside its tags: no title or blurb can close the script or an attribute', async () => {
    const html = (await get(hostile.path)).body;
    expect(html).not.toContain('<script>alert(1)');
    expect(html.match(/<\/script>/g)).toHaveLength(1); // the JSON-LD's own
    expect(html).toContain('<title>Tags &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Quotes&quot; by');
    const data = jsonLd(html);
    expect(data.name).toBe('Tags </script><script>alert(1)</script> & "Quotes"');
    expect(data.description).toBe('A <b>bold</b> "blurb" </script>');
    expect(data.aggregateRating).toMatchObject({ ratingValue: 4.5, ratingCount: 4 });
    expect(data.offers.availability).toBe('https://schema.org/OutOfStock');
  });

  it('moves an outdated title, a bare id or a trailing slash to the one canonical address', async () => {
    for (const url of [`/books/${hostile.id}`, `/books/${hostile.id}-an-old-title`, `${hostile.path}/`, `/books/${hostile.id}?from=mail`]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(301);
      expect(res.headers.location).toBe(hostile.path);
    }
  });

  it('answers 404 with the app, kept out of search results, for a copy not on sale or no book at all', async () => {
    for (const url of [`/books/${withdrawnId}`, '/books/999999999-nothing', '/books/hobbit', '/books/0']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body).toContain('<meta name="robots" content="noindex" />');
      expect(res.body).toContain('<div id="root"></div>');
    }
  });

  it('without PUBLIC_URL, names the address the request came to', async () => {
    const local = await createTestApp({ env: { WEB_DIST: t.config.webDist } });
    const [book] = await local.db.query<{ id: number; name: string }>(
      'SELECT c.id, b.name FROM book_copies c JOIN books b ON b.id = c.book_id WHERE c.is_available ORDER BY c.id LIMIT 1',
    );
    const canonical = bookPagePath(book!.id, book!.name);
    const html = (await local.app.inject({ method: 'GET', url: canonical, headers: { host: 'localhost:3000' } })).body;
    expect(html).toContain(`<link rel="canonical" href="http://localhost:3000${canonical}" data-book-page="${book!.id}" />`);
  });

  it('is not served by an API that serves no web app', async () => {
    const apiOnly = await createTestApp();
    const res = await apiOnly.app.inject({ method: 'GET', url: hostile.path });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('NOT_FOUND');
  });
});

describe('the sitemap', () => {
  it('indexes the categories and one file per block of copy ids, each listing the pages on sale', async () => {
    const [{ last }] = (await t.db.query<{ last: number }>('SELECT max(id) AS last FROM book_copies')) as [{ last: number }];
    const files = Math.ceil(last / SITEMAP_BOOKS_PER_FILE);
    const index = await get('/sitemap.xml');
    expect(index.headers['content-type']).toBe('application/xml; charset=utf-8');
    const locations = [...index.body.matchAll(/<loc>(.*?)<\/loc>/g)].map((m) => m[1]);
    expect(locations).toEqual([
      `${ORIGIN}/sitemaps/categories.xml`,
      ...Array.from({ length: files }, (_, i) => `${ORIGIN}/sitemaps/books-${i + 1}.xml`),
    ]);

    const categories = (await get('/sitemaps/categories.xml')).body;
    expect(categories).toContain(`<loc>${ORIGIN}/fantasy</loc>`);
    expect(categories.match(/<url>/g)).toHaveLength(10);

    const fileOf = (id: number) => `/sitemaps/books-${Math.ceil(id / SITEMAP_BOOKS_PER_FILE)}.xml`;
    expect((await get(fileOf(hostile.id))).body).toContain(`<loc>${ORIGIN}${hostile.path}</loc>`);
    expect((await get(fileOf(withdrawnId))).body).not.toContain(`/books/${withdrawnId}`);
    const [{ available }] = (await t.db.query<{ available: number }>(
      `SELECT count(*)::int AS available FROM book_copies WHERE is_available AND id <= ${SITEMAP_BOOKS_PER_FILE}`,
    )) as [{ available: number }];
    expect((await get('/sitemaps/books-1.xml')).body.match(/<url>/g)).toHaveLength(available);
  });

  it('has no file past the last copy id, nor any other name', async () => {
    for (const url of ['/sitemaps/books-999.xml', '/sitemaps/books-0.xml', '/sitemaps/other.xml'])
      expect((await get(url)).statusCode, url).toBe(404);
  });

  it('is named in robots.txt, which keeps crawlers off the API and the screens of a person', async () => {
    const robots = await get('/robots.txt');
    expect(robots.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(robots.body).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`);
    for (const path of ['/api/', '/cart', '/account', '/orders']) expect(robots.body).toContain(`Disallow: ${path}\n`);
  });
});

it('refuses a PUBLIC_URL that is not an origin', () => {
  for (const bad of ['shop.example.com', 'https://shop.example.com/', 'https://a.com,https://b.com']) {
    expect(() => loadConfig({ NODE_ENV: 'test', DATABASE_URL: 'postgresql://x@y/z', PUBLIC_URL: bad }), bad).toThrow(/PUBLIC_URL/);
  }
});

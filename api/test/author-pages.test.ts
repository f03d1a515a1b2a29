// Author pages a crawler can read (issue 30): the author's name in the title, the heading and the
// schema.org Person, the first page of their books as links, one canonical address.
import { authorPagePath, bookPagePath } from '@bookshop/rules';
import { beforeAll, describe, expect, it } from 'vitest';
import { createPagesTestApp, jsonLd, SHOP_ORIGIN as ORIGIN, type TestApp } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createPagesTestApp();
});
const get = (url: string) => t.app.inject({ method: 'GET', url });

describe('an author page', () => {
  it("names the author in the server's HTML: title, heading, Person JSON-LD, canonical link and the first page of books", async () => {
    const [rowling] = await t.db.query<{ id: number }>("SELECT id FROM authors WHERE full_name = 'J.K. Rowling'");
    const canonical = authorPagePath(rowling!.id, 'J.K. Rowling');
    const res = await get(canonical);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    const html = res.body;
    expect(html).toContain('<title>J.K. Rowling · Bookshop</title>');
    expect(html).toContain('<h1>J.K. Rowling</h1>');
    expect(html).toContain(`<link rel="canonical" href="${ORIGIN}${canonical}"`);
    const ld = jsonLd(html);
    expect(ld).toMatchObject({ '@type': 'Person', name: 'J.K. Rowling', url: ORIGIN + canonical });
    const api = (await get(`/api/public/authors/${rowling!.id}?pageSize=15`)).json().data;
    expect(ld.workExample.map((w: { name: string }) => w.name)).toEqual(api.books.map((b: { name: string }) => b.name));
    for (const book of api.books) expect(html).toContain(`href="${bookPagePath(book.id, book.name)}"`);
  });

  it('keeps a hostile name inside its markup', async () => {
    const [author] = await t.db.query<{ id: number }>(
      `INSERT INTO authors (full_name) VALUES ('Evil </script><script>alert(1)</script> "Q"') RETURNING id`,
    );
    const res = await get(`/authors/${author!.id}`);
    expect(res.statusCode).toBe(301);
    const page = await get(res.headers.location as string);
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain('<script>alert(1)');
    expect(jsonLd(page.body).name).toBe('Evil </script><script>alert(1)</script> "Q"');
  });

  it('moves an outdated name or a bare id to the canonical address, and answers 404 for no author', async () => {
    const [rowling] = await t.db.query<{ id: number }>("SELECT id FROM authors WHERE full_name = 'J.K. Rowling'");
    const moved = await get(`/authors/${rowling!.id}-someone-else`);
    expect(moved.statusCode).toBe(301);
    expect(moved.headers.location).toBe(authorPagePath(rowling!.id, 'J.K. Rowling'));
    const missing = await get('/authors/99999999-nobody');
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('noindex');
  });
});

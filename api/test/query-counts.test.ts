// No N+1: a list costs the same number of SQL statements whatever its page size.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO, ownStatements, type TestApp } from './helpers.ts';

let t: TestApp;
const own = ownStatements();
let cookies: { client: string; admin: string };
beforeAll(async () => {
  t = await createTestApp({ onQuery: own.onQuery });
  cookies = { client: await t.login(DEMO.client), admin: await t.login(DEMO.admin) };
});

async function countQueries(url: string, cookie = '') {
  const { answer: res, sent } = await own.of(() => t.app.inject({ method: 'GET', url, headers: { cookie } }));
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  // None recorded would make every comparison below hold: the count must see the read's own statements.
  expect(sent.length, `${url}: no statement recorded`).toBeGreaterThan(0);
  return sent.length;
}

describe('query counts do not grow with the page size', () => {
  it.each([
    ['a category page', (n: number) => `/api/public/book-copy/by-type/Fantasy,1,${n}`, 'anonymous'],
    ["an author's page", (n: number) => `/api/public/authors/1?pageSize=${n}`, 'anonymous'],
    ['back-office orders with their items', (n: number) => `/api/employee/order/1,${n}`, 'admin'],
    ['my orders', (n: number) => `/api/client/orders/1,${n}`, 'client'],
    ['books', (n: number) => `/api/employee/book/1,${n}`, 'admin'],
    ['book copies', (n: number) => `/api/employee/book-copy/1,${n}`, 'admin'],
    ['clients', (n: number) => `/api/employee/statistics/clients/?pageNumber=1&pageSize=${n}`, 'admin'],
  ] as const)('%s', async (_, url, who) => {
    const cookie = who === 'anonymous' ? '' : cookies[who];
    expect(await countQueries(url(50), cookie)).toBe(await countQueries(url(2), cookie));
  });

  it.each([
    ['categories', '/api/public/book-copy/types/'],
    ['a category page', '/api/public/book-copy/by-type/fantasy,3,15'],
    ['a page past the end of a category', '/api/public/book-copy/by-type/Fantasy,9999,15'],
    ['a book detail', '/api/public/book-copy/by-id/1234'],
    ['a search with a typo', '/api/public/book-copy/by-name/harry%20poter'],
    ['a search of one word', '/api/public/book-copy/by-name/tolkien'],
    ['a search of a common word', '/api/public/book-copy/by-name/the'],
    ['a search of one letter', '/api/public/book-copy/by-name/a'],
    ['a search of a short and a long word', '/api/public/book-copy/by-name/of%20rings'],
    ['new releases', '/api/public/book-copy/new-releases/'],
    ['best sellers', '/api/public/book-copy/best-sellers/'],
    ['top rated', '/api/public/book-copy/top-rated/'],
    ['recommended', '/api/public/book-copy/recommended/'],
  ])('%s is one statement', async (_, url) => {
    expect(await countQueries(url)).toBe(1);
  });

  it('a Low Stock page past the end is read no further than its count: the page is never ranked', async () => {
    const first = await countQueries('/api/employee/low-stock/?pageSize=10', cookies.admin);
    expect(await countQueries('/api/employee/low-stock/?pageSize=10&pageNumber=100000000', cookies.admin)).toBe(first - 1);
  });

  it('the Books, Book Copies and Authors pages count no table (catalog_totals says how many), and their page counts stay exact', async () => {
    const pages = async (table: 'books' | 'book_copies' | 'authors', url: string) => {
      const { answer, sent } = await own.of(() => t.app.inject({ method: 'GET', url, headers: { cookie: cookies.admin } }));
      expect(sent.join('\n')).not.toMatch(/count\(/i);
      const [{ n }] = (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)) as [{ n: number }];
      expect(answer.json().data.totalPages).toBe(Math.ceil(n / 10));
    };
    const allPages = async () => {
      await pages('books', '/api/employee/book/1,10');
      await pages('book_copies', '/api/employee/book-copy/1,10');
      await pages('authors', '/api/employee/author/1,10');
    };
    await allPages();
    // One more author, book and copy, added by plain SQL as an import's statements are: still exact.
    await t.db.query(`WITH a AS (INSERT INTO authors (full_name) VALUES ('Counted Author') RETURNING id),
                      b AS (INSERT INTO books (name, search_text, author_id, type_id)
                            SELECT 'Counted', 'counted', a.id, min(bt.id) FROM a, book_types bt GROUP BY a.id RETURNING id)
                      INSERT INTO book_copies (book_id, quantity, price) SELECT id, 1, 5 FROM b`);
    await allPages();
    // And ten authors fewer (none with books), deleted as plain SQL would.
    await t.db.query(
      'DELETE FROM authors WHERE id IN (SELECT id FROM authors a WHERE NOT EXISTS (SELECT 1 FROM books b WHERE b.author_id = a.id) LIMIT 10)',
    );
    await allPages();
  });

  it("an author's page is two statements: the author with their count, then the page", async () => {
    expect(await countQueries('/api/public/authors/1?pageNumber=1&pageSize=15')).toBe(2);
  });

  it('recommended for a signed-in client adds the session check (one statement reads and touches it) and their categories', async () => {
    expect(await countQueries('/api/public/book-copy/recommended/', cookies.client)).toBe(3);
  });

  it('search costs the same for many results as for few, and the home lists one or two statements', async () => {
    expect(await countQueries('/api/public/book-copy/by-name/harry%20potter')).toBe(
      await countQueries('/api/public/book-copy/by-name/the%20hobbit'),
    );
    for (const url of [
      '/api/public/book-copy/by-name/harry%20potter',
      '/api/public/book-copy/top-rated/',
      '/api/public/book-copy/new-releases/',
    ]) {
      expect(await countQueries(url)).toBeLessThanOrEqual(2);
    }
  });

  it('the cart costs the same with five lines as with one', async () => {
    const cookie = await (async () => {
      const account = `counts-${Date.now()}@example.com`;
      await t.db.query(
        "INSERT INTO clients (first_name, last_name, phone_number, account, password_hash) SELECT 'Q', 'C', '0555000000', $1, password_hash FROM clients WHERE account = 'client@bookshop.test'",
        [account],
      );
      return t.login({ account, password: DEMO.client.password });
    })();
    await t.app.inject({ method: 'POST', url: '/api/client/cart/10', headers: { cookie } });
    const one = await countQueries('/api/client/cart', cookie);
    for (let i = 2; i <= 5; i++) await t.app.inject({ method: 'POST', url: `/api/client/cart/${i * 10}`, headers: { cookie } });
    expect(await countQueries('/api/client/cart', cookie)).toBe(one);
  });

  it('a checkout is at most 6 statements, whatever its number of lines', async () => {
    const checkout = async (lines: number) => {
      const account = `checkout-${lines}-${Date.now()}@example.com`;
      await t.db.query(
        "INSERT INTO clients (first_name, last_name, phone_number, account, password_hash) SELECT 'Q', 'C', '0555000000', $1, password_hash FROM clients WHERE account = 'client@bookshop.test'",
        [account],
      );
      const cookie = await t.login({ account, password: DEMO.client.password });
      for (let i = 1; i <= lines; i++) await t.app.inject({ method: 'POST', url: `/api/client/cart/${100 + i}`, headers: { cookie } });
      const cart = (await t.app.inject({ method: 'GET', url: '/api/client/cart', headers: { cookie } })).json().data as {
        id: number;
        totalPrice: number;
        totalQuantity: number;
      }[];
      const { answer: res, sent } = await own.of(() =>
        t.app.inject({
          method: 'POST',
          url: '/api/client/orders/',
          headers: { cookie, 'idempotency-key': `k-${lines}-${Date.now()}` },
          payload: {
            shipmentAddress: '5 Rue Ben Boulaid, Constantine',
            totalPrice: Math.round(cart.reduce((sum, l) => sum + l.totalPrice * l.totalQuantity, 0) * 100) / 100,
            totalQuantity: cart.reduce((sum, l) => sum + l.totalQuantity, 0),
            cartItemsIds: cart.map((l) => l.id),
          },
        }),
      );
      expect(res.statusCode, res.body).toBe(200);
      // The session check is the client subtree's, not the checkout's.
      return sent.filter((sql) => !/session_families/.test(sql));
    };
    const two = await checkout(2);
    const five = await checkout(5);
    expect(two.length, 'no statement recorded').toBeGreaterThan(0);
    expect(five.length).toBe(two.length);
    expect(two.length, two.join('\n')).toBeLessThanOrEqual(6);
  });
});

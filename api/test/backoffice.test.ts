import { canChangeStatus } from '@bookshop/rules';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { OWN_INFORMATION_SAVES_PER_HOUR } from '../src/routes/employee/account.ts';
import { createTestApp, DEMO, type TestApp, untilStatementsWaitOnLocks } from './helpers.ts';

let t: TestApp;
const cookies: Record<'anonymous' | 'client' | 'seller' | 'admin', string> = { anonymous: '', client: '', seller: '', admin: '' };
beforeAll(async () => {
  t = await createTestApp();
  cookies.client = await t.login(DEMO.client);
  cookies.seller = await t.login(DEMO.seller);
  cookies.admin = await t.login(DEMO.admin);
});
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (who: keyof typeof cookies, method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie: cookies[who] }, payload });

// Every employee route; `seller` says whether a Seller may use it. Bodies are deliberately invalid
// where a write would change data, so an allowed call answers 4xx from validation, not 401/403.
const ROUTES: [Method, string, boolean][] = [
  ['GET', '/api/employee/statistics/', true],
  ['GET', '/api/employee/statistics/resent-orders/', true],
  ['GET', '/api/employee/statistics/new-clients/', true],
  ['GET', '/api/employee/statistics/clients/', false],
  ['GET', '/api/employee/order/1,5', true],
  ['PUT', '/api/employee/order/set-status/999999,Shipped', true],
  ['POST', '/api/employee/order/999999/cancel', true],
  ['GET', '/api/employee/employee/', true],
  ['PUT', '/api/employee/', true],
  ['PUT', '/api/employee/password/', true],
  ['GET', '/api/employee/author/1,10', false],
  ['POST', '/api/employee/author/%20', false],
  ['PUT', '/api/employee/author/999999,Nobody', false],
  ['GET', '/api/employee/author/by-id/1', false],
  ['GET', '/api/employee/author/by-name/tolkien', false],
  ['DELETE', '/api/employee/author/999999', false],
  ['DELETE', '/api/author/999999', false],
  ['GET', '/api/employee/book/1,10', false],
  ['POST', '/api/employee/book/123', false],
  ['PUT', '/api/employee/book/', false],
  ['DELETE', '/api/employee/book/999999', false],
  ['GET', '/api/employee/book/by-id/1', false],
  ['GET', '/api/employee/book/by-name/hobbit', false],
  ['GET', '/api/employee/book-copy/1,10', false],
  ['POST', '/api/employee/book-copy/', false],
  ['PUT', '/api/employee/book-copy/', false],
  ['DELETE', '/api/employee/book-copy/999999', false],
  ['GET', '/api/employee/book-copy/by-id/1', false],
  ['GET', '/api/employee/employees/', false],
  ['POST', '/api/employee/', false],
  ['DELETE', '/api/employee/999999', false],
  ['GET', '/api/employee/contact/', false],
  ['DELETE', '/api/employee/contact/999999', false],
  ['GET', '/api/employee/review/1,10', false],
  ['PUT', '/api/employee/review/999999', false],
  // Beyond the spec, for staff: charts and Low Stock for both roles; the threshold, the audit log,
  // and the bulk import and export for the Admin.
  ['GET', '/api/employee/statistics/charts/daily-sales', true],
  ['GET', '/api/employee/statistics/charts/category-units', true],
  ['GET', '/api/employee/statistics/charts/status-mix', true],
  ['GET', '/api/employee/low-stock/', true],
  ['POST', '/api/employee/low-stock/999999/restock', true],
  ['GET', '/api/employee/low-stock/1/movements', true],
  ['GET', '/api/employee/mail/dead-letters', false],
  ['POST', '/api/employee/mail/dead-letters/999999/retry', false],
  ['PUT', '/api/employee/low-stock/threshold', false],
  ['GET', '/api/employee/audit-log/', false],
  ['GET', '/api/employee/catalog/export.csv', false],
  ['POST', '/api/employee/catalog/import', false],
  ['GET', '/api/employee/catalog/import/999999', false],
  ['POST', '/api/employee/catalog/import/999999/run', false],
  // Staff second factor: each employee's own for both roles; a role change and a reset for the Admin.
  ['GET', '/api/employee/second-factor/', true],
  ['POST', '/api/employee/second-factor/totp', true],
  ['POST', '/api/employee/second-factor/totp/confirm', true],
  ['DELETE', '/api/employee/second-factor/totp', true],
  ['POST', '/api/employee/second-factor/passkeys/options', true],
  ['POST', '/api/employee/second-factor/passkeys', true],
  ['PUT', '/api/employee/second-factor/passkeys/999999', true],
  ['DELETE', '/api/employee/second-factor/passkeys/999999', true],
  ['POST', '/api/employee/second-factor/recovery-codes', true],
  ['POST', '/api/employee/second-factor/step-up/options', true],
  ['POST', '/api/employee/second-factor/step-up', true],
  ['PUT', '/api/employee/999999/role', false],
  ['DELETE', '/api/employee/999999/second-factor', false],
  // Each employee's own sessions.
  ['GET', '/api/employee/sessions/', true],
  ['POST', '/api/employee/sessions/end', true],
];

describe('authorization matrix', () => {
  it('covers every back-office route the API serves', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as { paths: Record<string, object> };
    const served = Object.entries(document.paths)
      .filter(([path]) => path.startsWith('/api/employee/') || path.startsWith('/api/author/'))
      .flatMap(([path, operations]) => Object.keys(operations).map((method) => [method.toUpperCase(), path] as const));
    const listed = (method: string, path: string) => {
      const pattern = new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}/?$`);
      return ROUTES.some(([m, url]) => m === method && pattern.test(url));
    };
    expect(served.filter(([method, path]) => !listed(method, path))).toEqual([]);
  });

  it.each(ROUTES)('%s %s: anonymous 401, client 401, Seller per menu, Admin allowed', async (method, url, sellerAllowed) => {
    const payload = method === 'GET' || method === 'DELETE' ? undefined : {};
    expect((await call('anonymous', method, url, payload)).statusCode).toBe(401);
    expect((await call('client', method, url, payload)).statusCode).toBe(401);
    const seller = await call('seller', method, url, payload);
    if (sellerAllowed) expect([401, 403]).not.toContain(seller.statusCode);
    else expect(seller.statusCode).toBe(403);
    const admin = await call('admin', method, url, payload);
    expect([401, 403, 500]).not.toContain(admin.statusCode);
  });
});

describe('dashboard, clients and messages', () => {
  it('counts orders, books, copies and clients', async () => {
    const res = await call('seller', 'GET', '/api/employee/statistics/');
    const [c] = await t.db.query<Record<string, string>>(
      'SELECT (SELECT count(*) FROM orders) o, (SELECT count(*) FROM books) b, (SELECT count(*) FROM book_copies) bc, (SELECT count(*) FROM clients) c',
    );
    expect(res.json().data).toEqual({
      totalOrders: Number(c!.o),
      totalBooks: Number(c!.b),
      totalBooksCopies: Number(c!.bc),
      totalClients: Number(c!.c),
    });
    expect((await call('seller', 'GET', '/api/employee/statistics/resent-orders/')).json().data).toHaveLength(10);
    const clients = (await call('admin', 'GET', '/api/employee/statistics/clients/?pageNumber=2&pageSize=20')).json().data;
    expect(clients.clients).toHaveLength(20);
    expect(clients.totalPages).toBe(Math.ceil(Number(c!.c) / 20));
    expect(clients.clients[0]).not.toHaveProperty('passwordHash');
  });

  it('lists and deletes client messages', async () => {
    const list = (await call('admin', 'GET', '/api/employee/contact/')).json().data as { id: number }[];
    expect(list.length).toBeGreaterThan(0);
    const id = list[0]!.id;
    expect((await call('admin', 'DELETE', `/api/employee/contact/${id}`)).statusCode).toBe(200);
    expect((await call('admin', 'DELETE', `/api/employee/contact/${id}`)).statusCode).toBe(404);
  });
});

describe('authors', () => {
  it('adds, renames, finds, and deletes an author; refuses empty names and authors with books', async () => {
    expect((await call('admin', 'POST', '/api/employee/author/%20%20')).statusCode).toBe(400);
    const added = (await call('admin', 'POST', `/api/employee/author/${encodeURIComponent('Ursula K. Le Guin Test')}`)).json().data;
    expect(added.fullName).toBe('Ursula K. Le Guin Test');
    const renamed = await call('admin', 'PUT', `/api/employee/author/${added.id},${encodeURIComponent('Le Guin, Ursula')}`);
    expect(renamed.json().data.fullName).toBe('Le Guin, Ursula');
    expect((await call('admin', 'GET', `/api/employee/author/by-name/le%20guin`)).json().data.map((a: { id: number }) => a.id)).toContain(
      added.id,
    );
    expect((await call('admin', 'DELETE', `/api/author/${added.id}`)).statusCode).toBe(200);
    expect((await call('admin', 'GET', `/api/employee/author/by-id/${added.id}`)).statusCode).toBe(404);
    const withBooks = await call('admin', 'DELETE', '/api/employee/author/1');
    expect(withBooks.statusCode).toBe(409);
    expect(withBooks.json().error.message).toMatch(/still has/);
  });

  it("renaming an author rewrites every one of their books' search text, so a search by the new name finds them all", async () => {
    const [author] = await t.db.query<{ id: number; full_name: string; books: number }>(
      'SELECT a.id, a.full_name, count(*)::int AS books FROM authors a JOIN books b ON b.author_id = a.id GROUP BY a.id HAVING count(*) > 2 ORDER BY a.id LIMIT 1',
    );
    const searchTexts = async () =>
      (await t.db.query<{ search_text: string }>('SELECT search_text FROM books WHERE author_id = $1', [author!.id])).map(
        (b) => b.search_text,
      );
    const rename = (name: string) => call('admin', 'PUT', `/api/employee/author/${author!.id},${encodeURIComponent(name)}`);
    expect((await rename('Zephyrine Quillfeather')).statusCode).toBe(200);
    const renamed = await searchTexts();
    expect(renamed).toHaveLength(author!.books);
    for (const text of renamed) expect(text).toContain('quillfeather');
    expect((await rename(author!.full_name)).statusCode).toBe(200);
    for (const text of await searchTexts()) expect(text).not.toContain('quillfeather');
  });

  it('pages authors by 10', async () => {
    const page = (await call('admin', 'GET', '/api/employee/author/1,10')).json().data;
    expect(page.authors).toHaveLength(10);
    expect(page.totalPages).toBeGreaterThan(100);
  });
});

describe('books and copies', () => {
  it('adds a book by ISBN from the bundled catalog, creating its author; refuses duplicates and invalid ISBNs', async () => {
    const [victim] = await t.db.query<{ id: number; isbn13: string; name: string }>(
      `SELECT b.id, b.isbn13, b.name FROM books b WHERE b.isbn13 IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM order_items oi JOIN book_copies c ON c.id = oi.book_copy_id WHERE c.book_id = b.id) LIMIT 1`,
    );
    expect((await call('admin', 'DELETE', `/api/employee/book/${victim!.id}`)).statusCode).toBe(200);
    const isbn10 = victim!.isbn13.slice(3, 12);
    const check = [...isbn10].reduce((s, d, i) => s + Number(d) * (10 - i), 0);
    const digit = (11 - (check % 11)) % 11;
    const res = await call('admin', 'POST', `/api/employee/book/${isbn10}${digit === 10 ? 'X' : digit}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.name).toBe(victim!.name);
    expect((await call('admin', 'POST', `/api/employee/book/${victim!.isbn13}`)).statusCode).toBe(409);
    expect((await call('admin', 'POST', '/api/employee/book/9780000000001')).statusCode).toBe(400);
    expect((await call('admin', 'POST', '/api/employee/book/9780000000002')).statusCode).toBe(404);
  });

  it('refuses to delete a book whose copies were ordered', async () => {
    const [sold] = await t.db.query<{ book_id: number }>(
      'SELECT c.book_id FROM order_items oi JOIN book_copies c ON c.id = oi.book_copy_id LIMIT 1',
    );
    expect((await call('admin', 'DELETE', `/api/employee/book/${sold!.book_id}`)).statusCode).toBe(409);
  });

  it('deletes a book nobody ordered, together with its copies and the cart lines holding them', async () => {
    const [book] = await t.db.query<{ id: number }>(
      `SELECT b.id FROM books b WHERE NOT EXISTS
         (SELECT 1 FROM order_items oi JOIN book_copies c ON c.id = oi.book_copy_id WHERE c.book_id = b.id)
       ORDER BY b.id DESC LIMIT 1`,
    );
    const res = await call('admin', 'DELETE', `/api/employee/book/${book!.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(await t.db.query('SELECT id FROM books WHERE id = $1', [book!.id])).toEqual([]);
    expect(await t.db.query('SELECT id FROM book_copies WHERE book_id = $1', [book!.id])).toEqual([]);
    expect((await call('admin', 'DELETE', `/api/employee/book/${book!.id}`)).statusCode).toBe(404);
  });

  it('updates a book and validates author, category and date', async () => {
    const ok = await call('admin', 'PUT', '/api/employee/book/', {
      id: 5,
      name: 'Renamed',
      pagesNumber: 321,
      typeId: 2,
      publishedAt: '2001-02-03',
    });
    expect(ok.json().data).toMatchObject({ id: 5, name: 'Renamed', pagesNumber: 321, typeId: 2, publishedAt: '2001-02-03' });
    expect((await call('admin', 'PUT', '/api/employee/book/', { id: 5, authorId: 99999999 })).statusCode).toBe(400);
    expect((await call('admin', 'PUT', '/api/employee/book/', { id: 5, publishedAt: 'yesterday' })).statusCode).toBe(400);
    expect((await call('admin', 'PUT', '/api/employee/book/', { id: 5, publishedAt: null })).json().data.publishedAt).toBeNull();
  });

  it('adds, updates and deletes a copy with quantity and price rules', async () => {
    const add = (body: object) => call('admin', 'POST', '/api/employee/book-copy/', body);
    expect((await add({ bookId: 1, quantity: -1, price: 5, isAvailable: true })).statusCode).toBe(400);
    expect((await add({ bookId: 1, quantity: 1, price: 5.555, isAvailable: true })).statusCode).toBe(400);
    expect((await add({ bookId: 99999999, quantity: 1, price: 5, isAvailable: true })).statusCode).toBe(400);
    // Up to the price an import may write (the column's most): such a copy can be saved again.
    expect((await add({ bookId: 1, quantity: 1, price: 100_000_000, isAvailable: true })).statusCode).toBe(400);
    for (const price of [19.99, 0.29, 4.35, 99_999_999.99]) {
      const res = await add({ bookId: 1, quantity: 1, price, isAvailable: true });
      expect(res.statusCode, `${price}: ${res.body}`).toBe(200);
      expect(res.json().data.price).toBe(price);
    }
    const copy = (await add({ bookId: 1, quantity: 7, price: 12.5, isAvailable: true })).json().data;
    expect(copy).toMatchObject({ bookId: 1, quantity: 7, price: 12.5, isAvailable: true });
    const updated = await call('admin', 'PUT', '/api/employee/book-copy/', {
      id: copy.id,
      bookId: 1,
      quantity: 3,
      price: 9.99,
      isAvailable: false,
    });
    expect(updated.json().data).toMatchObject({ quantity: 3, price: 9.99, isAvailable: false });
    expect((await call('admin', 'DELETE', `/api/employee/book-copy/${copy.id}`)).statusCode).toBe(200);
    expect((await call('admin', 'GET', `/api/employee/book-copy/by-id/${copy.id}`)).statusCode).toBe(404);
  });

  it('a delete with the version read refuses a copy restocked since (412, the copy as it is), and deletes it once read again', async () => {
    const copy = (await call('admin', 'POST', '/api/employee/book-copy/', { bookId: 1, quantity: 0, price: 5, isAvailable: true })).json()
      .data as { id: number; version: number };
    // A Seller restocks it after the Admin's table showed it with no stock.
    expect((await call('seller', 'POST', `/api/employee/low-stock/${copy.id}/restock`, { add: 50 })).statusCode).toBe(200);
    const remove = (version: number) =>
      t.app.inject({
        method: 'DELETE',
        url: `/api/employee/book-copy/${copy.id}`,
        headers: { cookie: cookies.admin, 'if-match': `"${version}"` },
      });
    const refused = await remove(copy.version);
    expect(refused.statusCode).toBe(412);
    expect(refused.json().error).toMatchObject({
      code: 'STALE_VERSION',
      message: 'Someone else changed this copy since you opened it: stock is now 50. Look at it again before deleting it.',
      details: { current: { id: copy.id, quantity: 50 } },
    });
    const now = await call('admin', 'GET', `/api/employee/book-copy/by-id/${copy.id}`);
    expect(now.json().data.quantity).toBe(50);
    expect((await remove(now.json().data.version)).statusCode).toBe(200);
    expect((await call('admin', 'GET', `/api/employee/book-copy/by-id/${copy.id}`)).statusCode).toBe(404);
  });
});

describe('orders and employees', () => {
  it('a role change says the role it read: one another Admin changed meanwhile keeps it (409 ROLE_CHANGED, the row as it is)', async () => {
    const who = await t.newEmployee({ role: 'Seller' });
    const switchRole = (role: string, from?: string) =>
      call('admin', 'PUT', `/api/employee/${who.id}/role${from ? `?from=${from}` : ''}`, { role });
    // Another Admin's screen made them an Admin; this one still shows a Seller and would make them... an Admin.
    expect((await switchRole('Admin', 'Seller')).statusCode).toBe(200);
    const stale = await switchRole('Admin', 'Seller');
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error).toMatchObject({
      code: 'ROLE_CHANGED',
      message: "This employee's role changed to Admin meanwhile: look at it again before changing it.",
      details: { current: { id: who.id, type: 'Admin' } },
    });
    // Seen as an Admin, the change goes ahead; without `from` (the spec has no such call) as before.
    expect((await switchRole('Seller', 'Admin')).json().data).toMatchObject({ type: 'Seller' });
    expect((await switchRole('Admin')).statusCode).toBe(200);
    expect((await switchRole('Seller', 'Manager')).statusCode).toBe(400);
    expect((await call('admin', 'PUT', '/api/employee/999999/role?from=Seller', { role: 'Admin' })).statusCode).toBe(404);
  });

  it('lists orders newest first with items, and sets Processing or Shipped only', async () => {
    const page = (await call('seller', 'GET', '/api/employee/order/1,5')).json().data;
    expect(page.orders).toHaveLength(5);
    const order = page.orders[0];
    expect(order.items.length).toBeGreaterThan(0);
    expect(order.items[0]).toEqual({
      id: expect.any(Number),
      name: expect.any(String),
      imageUrl: expect.anything(),
      quantity: expect.any(Number),
      totalPrice: expect.any(Number),
    });
    // The seed's newest order may be one that holds no stock, whose status stays (order-cancel.test.ts).
    const changeable = (page.orders as { id: number; status: string }[]).find((o) => canChangeStatus(o.status))!;
    expect((await call('seller', 'PUT', `/api/employee/order/set-status/${changeable.id},shipped`)).json().data).toBe('Shipped');
    expect((await call('seller', 'PUT', `/api/employee/order/set-status/${changeable.id},Refunded`)).statusCode).toBe(400);
  });

  it('pages every order as the database holds it, its lines in order, and keeps the count past the end', async () => {
    const orders = await t.app.prisma.order.findMany({
      select: {
        id: true,
        clientId: true,
        totalPrice: true,
        items: { select: { id: true, quantity: true, unitPrice: true }, orderBy: { id: 'asc' } },
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    });
    const pageSize = 100; // the largest page
    expect(orders.length).toBeGreaterThan(pageSize);
    const totalPages = Math.ceil(orders.length / pageSize);
    const served = [];
    for (let n = 1; n <= totalPages; n++) {
      const page = (await call('seller', 'GET', `/api/employee/order/${n},${pageSize}`)).json().data;
      expect(page.totalPages).toBe(totalPages);
      served.push(...page.orders);
    }
    expect(
      served.map((o) => [o.id, o.clientId, o.totalPrice, o.items.map((i: { id: number; totalPrice: number }) => [i.id, i.totalPrice])]),
    ).toEqual(
      orders.map((o) => [
        o.id,
        o.clientId,
        Number(o.totalPrice),
        o.items.map((i) => [i.id, Math.round(Number(i.unitPrice) * 100 * i.quantity) / 100]),
      ]),
    );
    const past = (await call('seller', 'GET', `/api/employee/order/${totalPages + 1},${pageSize}`)).json().data;
    expect(past).toEqual({ orders: [], totalPages });
  });

  it('counts the dashboard totals as the database does', async () => {
    const [orders, books, copies, clients] = await Promise.all([
      t.app.prisma.order.count(),
      t.app.prisma.book.count(),
      t.app.prisma.bookCopy.count(),
      t.app.prisma.client.count(),
    ]);
    expect((await call('seller', 'GET', '/api/employee/statistics/')).json().data).toEqual({
      totalOrders: orders,
      totalBooks: books,
      totalBooksCopies: copies,
      totalClients: clients,
    });
  });

  it('keeps the orders count exact through writes made outside the API (an insert, a status change, a delete)', async () => {
    // The dashboard and the orders page sum sales_daily, which triggers keep, instead of counting every order.
    const counted = async () => {
      const [{ n }] = (await t.db.query<{ n: string }>('SELECT count(*) AS n FROM orders')) as [{ n: string }];
      const dashboard = (await call('seller', 'GET', '/api/employee/statistics/')).json().data.totalOrders;
      const page = (await call('seller', 'GET', '/api/employee/order/1,1')).json().data.totalPages;
      return { orders: Number(n), dashboard, page };
    };
    const before = await counted();
    expect(before.dashboard).toBe(before.orders);
    const [{ id }] = (await t.db.query<{ id: number }>(
      `INSERT INTO orders (client_id, status, shipment_address, total_quantity, total_price, created_at)
       SELECT id, 'pending', 'Oran', 1, 9.99, now() - interval '400 days' FROM clients ORDER BY id LIMIT 1 RETURNING id`,
    )) as [{ id: number }];
    expect(await counted()).toEqual({ orders: before.orders + 1, dashboard: before.orders + 1, page: before.orders + 1 });
    await t.db.query(`UPDATE orders SET status = 'cancelled', created_at = now() WHERE id = $1`, [id]);
    expect(await counted()).toEqual({ orders: before.orders + 1, dashboard: before.orders + 1, page: before.orders + 1 });
    await t.db.query('DELETE FROM orders WHERE id = $1', [id]);
    expect(await counted()).toEqual(before);
  });

  it('keeps the books and copies counts exact through writes made outside the API, a rollback and the hourly fold', async () => {
    // The dashboard sums catalog_totals, a row per statement that added or removed books or copies.
    const counted = async () => {
      const [c] = await t.db.query<{ books: string; copies: string }>(
        'SELECT (SELECT count(*) FROM books) AS books, (SELECT count(*) FROM book_copies) AS copies',
      );
      const { totalBooks, totalBooksCopies } = (await call('seller', 'GET', '/api/employee/statistics/')).json().data;
      return { books: Number(c!.books), copies: Number(c!.copies), dashboard: [totalBooks, totalBooksCopies] };
    };
    const expectExact = async () => {
      const now = await counted();
      expect(now.dashboard).toEqual([now.books, now.copies]);
      return now;
    };
    const before = await expectExact();
    const added = await t.db.query<{ id: number }>(
      `INSERT INTO books (name, search_text, author_id, type_id)
       SELECT 'Counted ' || g, 'counted ' || g, (SELECT min(id) FROM authors), (SELECT min(id) FROM book_types)
       FROM generate_series(1, 3) g RETURNING id`,
    );
    const ids = added.map((b) => b.id);
    await t.db.query('INSERT INTO book_copies (book_id, price, quantity) SELECT id, 5, 1 FROM unnest($1::int[]) id', [ids]);
    await t.db.query('INSERT INTO book_copies (book_id, price, quantity) VALUES ($1, 6, 2)', [ids[0]]);
    expect(await expectExact()).toMatchObject({ books: before.books + 3, copies: before.copies + 4 });
    await t.db.query('DELETE FROM book_copies WHERE book_id = $1', [ids[0]]);
    await t.db.query('DELETE FROM books WHERE id = $1', [ids[0]]);
    expect(await expectExact()).toMatchObject({ books: before.books + 2, copies: before.copies + 2 });

    // A change rolled back leaves no count behind.
    const client = new pg.Client({ connectionString: t.db.url });
    await client.connect();
    await client.query('BEGIN');
    await client.query('DELETE FROM book_copies WHERE book_id = ANY($1::int[])', [ids]);
    await client.query('ROLLBACK');
    // Two transactions adding books at once never wait on each other (one counter row would make the
    // second wait for the first's commit: an import holds its transaction for minutes).
    await client.query('BEGIN');
    await client.query(`INSERT INTO books (name, search_text, author_id, type_id) SELECT 'Held', 'held', min(id), 1 FROM authors`);
    const beside = new pg.Client({ connectionString: t.db.url, options: '-c lock_timeout=1s' });
    await beside.connect();
    const other = await beside.query<{ id: number }>(
      `INSERT INTO books (name, search_text, author_id, type_id) SELECT 'Beside', 'beside', min(id), 1 FROM authors RETURNING id`,
    );
    await beside.end();
    await client.query('ROLLBACK');
    await client.end();
    await t.db.query('DELETE FROM books WHERE id = ANY($1::int[])', [other.rows.map((b) => b.id)]);
    expect(await expectExact()).toMatchObject({ books: before.books + 2, copies: before.copies + 2 });

    const rows = async () => Number((await t.db.query<{ n: string }>('SELECT count(*) AS n FROM catalog_totals'))[0]!.n);
    expect(await rows()).toBeGreaterThan(1);
    const report = await t.app.retention.run();
    expect(report.totalsFolded).toBeGreaterThan(1);
    expect(await rows()).toBe(1);
    expect(await expectExact()).toMatchObject({ books: before.books + 2, copies: before.copies + 2 });
    // One row left: nothing to fold.
    expect((await t.app.retention.run()).totalsFolded).toBe(0);
    await t.db.query('DELETE FROM book_copies WHERE book_id = ANY($1::int[])', [ids]);
    await t.db.query('DELETE FROM books WHERE id = ANY($1::int[])', [ids]);
    expect(await expectExact()).toEqual(before);
  });

  it('adds a Seller, never deletes an Admin or oneself', async () => {
    const person = {
      firstName: 'New',
      lastName: 'Seller',
      gender: 'Female',
      birthDate: '1999-01-02',
      email: 'new.seller@bookshop.test',
      phoneNumber: '0661111111',
      address: 'Oran',
    };
    expect(
      (await call('admin', 'POST', '/api/employee/', { person_informations: person, password: 'Seller123!', role: 'Boss' })).statusCode,
    ).toBe(400);
    const created = await call('admin', 'POST', '/api/employee/', { person_informations: person, password: 'Seller123!', role: 'Seller' });
    expect(created.json().data).toMatchObject({ type: 'Seller', email: 'new.seller@bookshop.test', birthDate: '1999-01-02' });
    expect(created.json().data).not.toHaveProperty('passwordHash');
    expect(
      (await call('admin', 'POST', '/api/employee/', { person_informations: person, password: 'Seller123!', role: 'Seller' })).statusCode,
    ).toBe(409);
    const list = (await call('admin', 'GET', '/api/employee/employees/')).json().data as { id: number; type: string }[];
    const admin = list.find((e) => e.type === 'Admin')!;
    expect((await call('admin', 'DELETE', `/api/employee/${admin.id}`)).statusCode).toBe(403);
    expect((await call('admin', 'DELETE', `/api/employee/${created.json().data.id}`)).statusCode).toBe(200);
  });

  it("updates the employee's own information", async () => {
    const me = (await call('seller', 'GET', '/api/employee/employee/')).json().data;
    const res = await call('seller', 'PUT', '/api/employee/', { ...me, address: 'New address, Oran' });
    expect(res.json().data.address).toBe('New address, Oran');
    expect((await call('seller', 'PUT', '/api/employee/', { ...me, firstName: '' })).json().error.message).toBe('All fields are required.');
  });

  it('a save of my information that says the version it read is refused (412) once it changed elsewhere; the spec client, sending none, saves', async () => {
    const who = await t.newEmployee();
    const cookie = await t.login(who);
    const send = (method: Method, url: string, payload?: object, headers: Record<string, string> = {}) =>
      t.app.inject({ method, url, headers: { cookie, ...headers }, payload });
    const read = await send('GET', '/api/employee/employee/');
    const opened = read.json().data;
    expect(opened.version).toEqual(expect.any(Number));
    // Not as the ETag: another employee's information has the same version.
    expect(read.headers.etag).not.toBe(`"${opened.version}"`);

    // Another tab saves a new phone number.
    const other = await send('PUT', '/api/employee/', { ...opened, phoneNumber: '0770000000' }, { 'if-match': `"${opened.version}"` });
    expect(other.statusCode, other.body).toBe(200);
    expect(other.headers.etag).toBe(`"${opened.version + 1}"`);
    // This tab, opened before, saves a new address with the old phone number.
    const stale = await send(
      'PUT',
      '/api/employee/',
      { ...opened, address: '5 Rue Ben Boulaid, Oran' },
      { 'if-match': `"${opened.version}"` },
    );
    expect(stale.statusCode).toBe(412);
    expect(stale.json().error).toMatchObject({
      code: 'STALE_VERSION',
      message:
        'Your information was changed elsewhere since you opened it (another tab, say). The form now shows what is saved, with your changes on top: check them and save again.',
      details: { current: { phoneNumber: '0770000000', address: opened.address, version: opened.version + 1 } },
    });
    expect((await send('GET', '/api/employee/employee/')).json().data).toMatchObject({
      phoneNumber: '0770000000',
      address: opened.address,
    });
    // A stale form with a new e-mail is refused before any proof is asked: no password try is spent.
    const failedChecks = async () =>
      (
        await t.db.query<{ n: number }>(
          "SELECT coalesce(sum(count), 0)::int AS n FROM security_events WHERE type IN ('login_failed', 'password_check_failed')",
        )
      )[0]!.n;
    const failedBefore = await failedChecks();
    const staleEmail = await send(
      'PUT',
      '/api/employee/',
      { ...opened, email: `moved-${who.id}@bookshop.test`, currentPassword: 'not the password' },
      { 'if-match': `"${opened.version}"` },
    );
    expect(staleEmail.statusCode).toBe(412);
    expect(await failedChecks()).toBe(failedBefore);

    // A change committed while this save waits on the row's lock (read as current before it) is seen under the lock.
    const current = (await send('GET', '/api/employee/employee/')).json().data;
    const holder = new pg.Client({ connectionString: t.db.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query("UPDATE employees SET phone_number = '0771111111' WHERE id = $1", [who.id]);
      const waiting = send('PUT', '/api/employee/', { ...current, address: '7 Rue Larbi, Oran' }, { 'if-match': `"${current.version}"` });
      await untilStatementsWaitOnLocks(t.db, 1);
      await holder.query('COMMIT');
      expect((await waiting).statusCode).toBe(412);
    } finally {
      await holder.end();
    }
    expect((await send('GET', '/api/employee/employee/')).json().data).toMatchObject({
      phoneNumber: '0771111111',
      address: opened.address,
    });

    // A role change is not the Account form's: an open form stays current.
    await call('admin', 'PUT', `/api/employee/${who.id}/role`, { role: 'Admin' });
    const after = (await send('GET', '/api/employee/employee/')).json().data;
    expect(after).toMatchObject({ type: 'Admin', version: opened.version + 2 });
    // Without If-Match (the spec's own client) a save is written as before.
    expect((await send('PUT', '/api/employee/', { ...opened, address: '5 Rue Ben Boulaid, Oran' })).statusCode).toBe(200);
    expect((await send('PUT', '/api/employee/', { ...after }, { 'if-match': 'three' })).statusCode).toBe(400);
  });

  it('answers an employee at most 30 saves of their information an hour, refused ones too: no endless probe of whose e-mail is taken', async () => {
    const prober = await t.newEmployee();
    const cookie = await t.login(prober);
    const me = (await t.app.inject({ method: 'GET', url: '/api/employee/employee/', headers: { cookie } })).json().data;
    const save = () =>
      t.app.inject({
        method: 'PUT',
        url: '/api/employee/',
        headers: { cookie },
        payload: { ...me, email: DEMO.client.account, currentPassword: prober.password },
      });
    for (let i = 0; i < OWN_INFORMATION_SAVES_PER_HOUR; i++) expect((await save()).statusCode).toBe(409);
    const refused = await save();
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });
});

// Beyond the spec, for staff: the dashboard's charts, the audit log, the low-stock report, and the
// bulk export and import of books with their copies.
import { parse } from 'csv-parse/sync';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { catalogTransferRepository } from '../src/modules/catalog-admin/catalog-transfer-repository.ts';
import { createTestApp, DEMO, statementRecorder } from './helpers.ts';

const statements = statementRecorder();
// Set up while the file is collected: every test below reads these, none changes them.
const t = await createTestApp({ onQuery: statements.onQuery });
const admin = await t.login(DEMO.admin);
const seller = await t.login(DEMO.seller);
const employeeId = async (email: string) => (await t.db.query<{ id: number }>('SELECT id FROM employees WHERE email = $1', [email]))[0]!.id;
const adminId = await employeeId(DEMO.admin.account);
const sellerId = await employeeId(DEMO.seller.account);

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, cookie: string, payload?: object | string, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, headers: { cookie, ...headers }, payload });
const data = async (method: Method, url: string, cookie: string, payload?: object) => {
  const res = await call(method, url, cookie, payload);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
};

/** A fresh book with one copy, in the given category, with no sales: the test's own row. */
async function newCopy({ quantity = 10, price = '9.99', category = 'Fantasy', name = `Staff test ${Math.random()}` } = {}) {
  const [row] = await t.db.query<{ copy_id: number; book_id: number }>(
    `WITH b AS (
       INSERT INTO books (name, search_text, author_id, type_id)
       SELECT $1, lower($1), (SELECT min(id) FROM authors), id FROM book_types WHERE name = $2 RETURNING id
     )
     INSERT INTO book_copies (book_id, quantity, price) SELECT id, $3, $4 FROM b RETURNING id AS copy_id, book_id`,
    [name, category, quantity, price],
  );
  return { copyId: row!.copy_id, bookId: row!.book_id };
}

/** An order of one line, placed `daysAgo` days ago (UTC), in the given status. */
async function newOrder(copyId: number, quantity: number, unitPrice: number, status: string, daysAgo = 0) {
  const client = await t.newClient();
  await t.db.query(
    `WITH o AS (
       INSERT INTO orders (client_id, status, shipment_address, total_quantity, total_price, created_at)
       VALUES ($1, $2, 'Somewhere 1', $3, $3::int * $4::numeric, (now() AT TIME ZONE 'UTC') - make_interval(days => $5::int))
       RETURNING id
     )
     INSERT INTO order_items (order_id, book_copy_id, name, unit_price, quantity) SELECT id, $6, 'x', $4, $3 FROM o`,
    [client.id, status, quantity, unitPrice, daysAgo, copyId],
  );
}

describe('dashboard charts', () => {
  it('aggregate the last 30 days: orders and revenue per day with empty days as zeros, units per category, the status mix', async () => {
    const charts = async () => ({
      days: (await data('GET', '/api/employee/statistics/charts/daily-sales', seller)) as {
        day: string;
        orders: number;
        revenue: number;
      }[],
      categories: (await data('GET', '/api/employee/statistics/charts/category-units', seller)) as { category: string; units: number }[],
      statuses: (await data('GET', '/api/employee/statistics/charts/status-mix', admin)) as { status: string; orders: number }[],
    });
    const before = await charts();
    expect(before.days).toHaveLength(30);
    const today = new Date().toISOString().slice(0, 10);
    expect(before.days.at(-1)!.day).toBe(today);
    expect(new Set(before.days.map((d) => d.day)).size).toBe(30);

    const { copyId } = await newCopy({ category: 'Philosophy' });
    await newOrder(copyId, 3, 10, 'pending');
    await newOrder(copyId, 2, 10, 'cancelled');
    await newOrder(copyId, 4, 10, 'failed');
    await newOrder(copyId, 5, 10, 'Shipped', 3);
    await newOrder(copyId, 7, 10, 'Shipped', 45); // outside the window
    const after = await charts();

    const dayDelta = (daysAgo: number) => {
      const day = new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
      const find = (list: typeof before.days) => list.find((d) => d.day === day)!;
      return { orders: find(after.days).orders - find(before.days).orders, revenue: find(after.days).revenue - find(before.days).revenue };
    };
    expect(dayDelta(0)).toEqual({ orders: 1, revenue: 30 });
    expect(dayDelta(3)).toEqual({ orders: 1, revenue: 50 });
    const units = (list: typeof before.categories) => list.find((c) => c.category === 'Philosophy')?.units ?? 0;
    expect(units(after.categories) - units(before.categories)).toBe(8);
    const status = (list: typeof before.statuses, name: string) => list.find((s) => s.status === name)?.orders ?? 0;
    expect(status(after.statuses, 'Cancelled') - status(before.statuses, 'Cancelled')).toBe(1);
    expect(status(after.statuses, 'Failed') - status(before.statuses, 'Failed')).toBe(1);
    expect(status(after.statuses, 'Pending') - status(before.statuses, 'Pending')).toBe(1);
    expect(status(after.statuses, 'Shipped') - status(before.statuses, 'Shipped')).toBe(1);
    expect(after.statuses.every((s) => s.status === s.status[0]!.toUpperCase() + s.status.slice(1).toLowerCase())).toBe(true);
  });

  it('keep their daily aggregates equal to a rebuild from the orders through inserts, status changes and deletes', async () => {
    const { copyId } = await newCopy({ category: 'History' });
    await newOrder(copyId, 2, 10, 'pending');
    await newOrder(copyId, 3, 10, 'Shipped', 2);
    const [first, second] = await t.db.query<{ id: number }>(
      'SELECT o.id FROM orders o JOIN order_items oi ON oi.order_id = o.id WHERE oi.book_copy_id = $1 ORDER BY o.id',
      [copyId],
    );
    await t.db.query("UPDATE orders SET status = 'cancelled' WHERE id = $1", [first!.id]);
    await t.db.query("UPDATE orders SET status = 'delivered' WHERE id = $1", [second!.id]);
    await t.db.query("UPDATE orders SET status = 'pending' WHERE id = $1", [first!.id]);
    await t.db.query('UPDATE order_items SET quantity = 5 WHERE order_id = $1', [second!.id]);
    await t.db.query('DELETE FROM orders WHERE id = $1', [first!.id]);
    const snapshot = () =>
      t.db.query(
        `SELECT 'd' AS t, day::text, status AS k, orders AS n, revenue::text AS r FROM sales_daily WHERE orders <> 0
         UNION ALL SELECT 'c', day::text, type_id::text, units, '' FROM sales_daily_categories WHERE units <> 0
         UNION ALL SELECT 'p', day::text, book_copy_id::text, units, '' FROM sales_daily_copies WHERE units <> 0
         ORDER BY 1, 2, 3`,
      );
    const kept = await snapshot();
    await t.db.query('SELECT sales_daily_rebuild()');
    expect(kept).toEqual(await snapshot());
    expect(kept.length).toBeGreaterThan(0);
  });
});

describe('audit log', () => {
  const log = (query: string, cookie = admin) => data('GET', `/api/employee/audit-log/?${query}`, cookie);

  it('lists back-office writes with who and the fields before and after, filtered by entity, person, event and day, paged by id', async () => {
    const { copyId, bookId } = await newCopy({ quantity: 4, price: '5.00' });
    const update = { id: copyId, bookId, quantity: 6, price: 7.5, isAvailable: true };
    expect((await call('PUT', '/api/employee/book-copy/', admin, update)).statusCode).toBe(200);
    const [entry] = (await log(`entity=BookCopy&actor=employee:${adminId}`)).entries;
    expect(entry).toMatchObject({
      type: 'backoffice_write',
      actor: `employee:${adminId}`,
      actorName: expect.stringMatching(/\S+ \S+/),
      entity: 'BookCopy',
      entityId: String(copyId),
      details: {
        operation: 'update',
        changed: ['price', 'quantity'],
        before: { quantity: 4, price: 5 },
        after: { quantity: 6, price: 7.5 },
      },
    });

    expect((await log(`entity=BookCopy&actor=employee:${sellerId}`)).entries).toEqual([]);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect((await log(`from=${tomorrow}`)).entries).toEqual([]);
    const today = new Date().toISOString().slice(0, 10);
    expect((await log(`entity=BookCopy&from=${today}&to=${today}`)).entries[0].id).toBe(entry.id);
    const refused = await call('GET', `/api/employee/audit-log/?from=${tomorrow}&to=${today}`, admin);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toBe('The from date must not be after the to date.');

    // Failed sign-ins are there too, by the e-mail they named.
    await t.app.inject({
      method: 'POST',
      url: '/api/public/authentication/login',
      payload: { account: 'nobody-audit@example.com', password: 'wrong-password-1' },
    });
    const failed = (await log('type=login_failed&actor=nobody-audit@example.com')).entries;
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ actorName: null, entity: null });

    // A stranger's sign-in under a name the log uses for people is recorded as nobody's: it neither
    // stands as an employee's own failure nor, with an id past any integer, stops the log loading.
    for (const account of [`employee:${sellerId}`, 'employee:99999999999']) {
      const spoof = await t.app.inject({
        method: 'POST',
        url: '/api/public/authentication/login',
        remoteAddress: '203.0.113.9',
        payload: { account, password: 'wrong-password-1' },
      });
      expect(spoof.statusCode).toBe(401);
    }
    const spoofed = (await log('type=login_failed&pageSize=100')).entries.filter((e: { address: string }) => e.address === '203.0.113.9');
    // One row with a count, or two should the attempts fall either side of a 10-minute window's edge.
    expect(spoofed.reduce((sum: number, e: { count: number }) => sum + e.count, 0)).toBe(2);
    for (const entry of spoofed) expect(entry).toMatchObject({ actor: null, actorName: null });
    expect((await log(`actor=employee:${sellerId}&type=login_failed`)).entries).toEqual([]);
    // Should such a row be there (written before this change), the log still loads, naming nobody.
    await t.db.query("INSERT INTO security_events (type, actor, address) VALUES ('login_failed', 'employee:99999999999', '203.0.113.10')");
    expect((await log('type=login_failed')).entries[0]).toMatchObject({ actor: 'employee:99999999999', actorName: null });

    // Pages: each next page starts below the last id, and the last page says there is none.
    const first = await log('pageSize=1');
    expect(first.entries).toHaveLength(1);
    expect(first.nextBefore).toBe(first.entries[0].id);
    const second = await log(`pageSize=1&before=${first.nextBefore}`);
    expect(second.entries[0].id).toBeLessThan(first.entries[0].id);
    const all = await log('pageSize=100');
    expect(all.entries.map((e: { id: number }) => e.id).slice(0, 2)).toEqual([first.entries[0].id, second.entries[0].id]);
    expect(all.nextBefore).toBeNull();
  });

  it('cannot be edited or deleted: no route does it and the table refuses it', async () => {
    const entries = (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM security_events'))[0]!.n;
    for (const method of ['PUT', 'DELETE', 'POST'] as const) {
      for (const url of ['/api/employee/audit-log/', '/api/employee/audit-log/1']) {
        const res = await call(method, url, admin, {});
        expect(res.statusCode, `${method} ${url}`).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, `${method} ${url}`).toBeLessThan(500);
      }
    }
    const still = (await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM security_events WHERE type = 'backoffice_write'"))[0]!.n;
    expect(still).toBeLessThanOrEqual(entries);
    await expect(t.db.query('UPDATE security_events SET actor = $1', ['someone-else'])).rejects.toThrow(/append-only/);
    await expect(t.db.query('DELETE FROM security_events')).rejects.toThrow(/append-only/);
  });

  it('commits an entry with its write and rolls it back with it', async () => {
    const { copyId } = await newCopy();
    const entries = async () =>
      (
        await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM security_events WHERE entity = 'BookCopy' AND entity_id = $1", [
          String(copyId),
        ])
      )[0]!.n;
    const restock = (end: 'COMMIT' | 'ROLLBACK') =>
      t.db.query(
        `BEGIN; SELECT set_config('bookshop.audit_actor', 'employee:${adminId}', true);
         UPDATE book_copies SET quantity = quantity + 1 WHERE id = ${copyId}; ${end};`,
      );
    await restock('ROLLBACK');
    expect(await entries()).toBe(0);
    await restock('COMMIT');
    expect(await entries()).toBe(1);
    // Without an actor named (a storefront write) nothing is recorded.
    await t.db.query(`UPDATE book_copies SET quantity = quantity + 1 WHERE id = ${copyId}`);
    expect(await entries()).toBe(1);
  });
});

describe('low stock', () => {
  it("lists copies at or below the Admin's threshold, the fastest sellers of 30 days first; only the Admin sets the threshold", async () => {
    expect((await call('PUT', '/api/employee/low-stock/threshold', seller, { threshold: 3 })).statusCode).toBe(403);
    expect((await data('PUT', '/api/employee/low-stock/threshold', admin, { threshold: 3 })).threshold).toBe(3);
    expect((await call('PUT', '/api/employee/low-stock/threshold', admin, { threshold: -1 })).statusCode).toBe(400);
    const slow = await newCopy({ quantity: 3 });
    const fast = await newCopy({ quantity: 3 });
    const plenty = await newCopy({ quantity: 4 });
    await newOrder(fast.copyId, 900, 1, 'Shipped');
    await newOrder(slow.copyId, 800, 1, 'Shipped', 40); // sold, but not in the last 30 days
    await newOrder(plenty.copyId, 950, 1, 'Shipped');

    const page = await data('GET', '/api/employee/low-stock/?pageSize=100', seller);
    expect(page.threshold).toBe(3);
    const ids = page.copies.map((c: { copyId: number }) => c.copyId);
    expect(ids).not.toContain(plenty.copyId);
    expect(ids.indexOf(fast.copyId)).toBe(0);
    expect(page.copies[0]).toMatchObject({ copyId: fast.copyId, quantity: 3, unitsSold30Days: 900, price: 9.99, isAvailable: true });
    const lastPage = await data('GET', `/api/employee/low-stock/?pageSize=100&pageNumber=${page.totalPages}`, seller);
    // Unsold in 30 days and with the most units allowed, the newest such copy comes last of all.
    expect(lastPage.copies.at(-1)).toMatchObject({ copyId: slow.copyId, quantity: 3, unitsSold30Days: 0 });
    expect(page.copies.every((c: { quantity: number }) => c.quantity <= 3)).toBe(true);
    const n = (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM book_copies WHERE quantity <= 3'))[0]!.n;
    expect(page.totalCopies).toBe(n);

    const threshold = (
      await t.db.query<{ actor: string }>("SELECT actor FROM security_events WHERE entity = 'ShopSettings' ORDER BY id DESC LIMIT 1")
    )[0];
    expect(threshold!.actor).toBe(`employee:${adminId}`);
  });

  it('pages exactly as ranking every low copy would: by 30 days of sales, then stock, then id, whatever the page', async () => {
    // Ties in sales and stock, sales older than the window, and copies on both sides of the threshold.
    const copies = await Promise.all([0, 1, 2, 2, 5, 5, 6].map((quantity) => newCopy({ quantity })));
    await newOrder(copies[0]!.copyId, 7, 1, 'Shipped');
    await newOrder(copies[2]!.copyId, 7, 1, 'Shipped', 3);
    await newOrder(copies[3]!.copyId, 7, 1, 'pending', 29);
    await newOrder(copies[4]!.copyId, 2, 1, 'Shipped', 45);
    await newOrder(copies[6]!.copyId, 9, 1, 'Shipped');
    expect((await data('PUT', '/api/employee/low-stock/threshold', admin, { threshold: 5 })).threshold).toBe(5);
    const everyLowCopy = await t.db.query<{ copyId: number; units: number }>(
      `SELECT c.id AS "copyId", coalesce((SELECT sum(s.units) FROM sales_daily_copies s
                                          WHERE s.book_copy_id = c.id AND s.day >= (now() AT TIME ZONE 'UTC')::date - 29), 0)::int AS units,
              c.quantity
       FROM book_copies c WHERE c.quantity <= 5 ORDER BY units DESC, c.quantity, c.id`,
    );
    const pageSize = 7;
    const served: { copyId: number; units: number }[] = [];
    const first = await data('GET', `/api/employee/low-stock/?pageSize=${pageSize}`, seller);
    expect(first.totalCopies).toBe(everyLowCopy.length);
    for (let page = 1; page <= first.totalPages; page++) {
      const answer = await data('GET', `/api/employee/low-stock/?pageSize=${pageSize}&pageNumber=${page}`, seller);
      served.push(
        ...answer.copies.map((c: { copyId: number; unitsSold30Days: number }) => ({ copyId: c.copyId, units: c.unitsSold30Days })),
      );
    }
    expect(served).toEqual(everyLowCopy.map(({ copyId, units }) => ({ copyId, units })));
    const servedIds = served.map((c) => c.copyId);
    expect(servedIds).toEqual(expect.arrayContaining(copies.slice(0, 6).map((c) => c.copyId)));
    expect(servedIds).not.toContain(copies[6]!.copyId);
    expect(served.find((c) => c.copyId === copies[0]!.copyId)!.units).toBe(7);
    expect(served.find((c) => c.copyId === copies[4]!.copyId)!.units).toBe(0);
  });

  it('restocks from the row (Seller too): the audit log names them and wishing clients hear it is back', async () => {
    const { copyId } = await newCopy({ quantity: 0 });
    const fan = await t.newClient();
    expect((await call('PUT', `/api/client/wishlist/${copyId}`, fan.cookie)).statusCode).toBe(200);
    expect(await data('POST', `/api/employee/low-stock/${copyId}/restock`, seller, { add: 12 })).toEqual({ quantity: 12 });
    const notices = await data('GET', '/api/client/notices', fan.cookie);
    expect(notices.unread).toBe(1);
    const [audit] = await t.db.query<{ actor: string; details: { before: { quantity: number }; after: { quantity: number } } }>(
      "SELECT actor, details FROM security_events WHERE entity = 'BookCopy' AND entity_id = $1 ORDER BY id DESC LIMIT 1",
      [String(copyId)],
    );
    expect(audit).toMatchObject({ actor: `employee:${sellerId}`, details: { before: { quantity: 0 }, after: { quantity: 12 } } });

    const tooMany = await call('POST', `/api/employee/low-stock/${copyId}/restock`, seller, { add: 1000000 });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error.message).toBe('A copy can hold at most 1,000,000 units in stock.');
    expect((await call('POST', '/api/employee/low-stock/999999999/restock', seller, { add: 1 })).statusCode).toBe(404);
    expect((await call('POST', `/api/employee/low-stock/${copyId}/restock`, seller, { add: 0 })).statusCode).toBe(400);
  });

  it('a restock sent again with its Idempotency-Key (a retry after a timeout) adds its units once; the key with other units or another copy is a 422', async () => {
    const { copyId } = await newCopy({ quantity: 2 });
    const { copyId: otherCopyId } = await newCopy({ quantity: 2 });
    const restock = (id: number, add: number, key: string) =>
      call('POST', `/api/employee/low-stock/${id}/restock`, seller, { add }, { 'idempotency-key': key });
    const quantity = async (id: number) =>
      (await t.db.query<{ quantity: number }>('SELECT quantity FROM book_copies WHERE id = $1', [id]))[0]!.quantity;

    // Two tries of one restock at once, then a third after: 10 units added, once.
    const tries = await Promise.all([restock(copyId, 10, 'restock-a'), restock(copyId, 10, 'restock-a')]);
    tries.push(await restock(copyId, 10, 'restock-a'));
    for (const res of tries) expect(res.json()).toEqual({ data: { quantity: 12 } });
    expect(await quantity(copyId)).toBe(12);
    const ledger = await t.db.query<{ change: number; reference: string }>(
      "SELECT change, reference FROM stock_movements WHERE copy_id = $1 AND reason = 'restock'",
      [copyId],
    );
    expect(ledger).toEqual([{ change: 10, reference: 'restock:restock-a' }]);

    for (const reused of [await restock(copyId, 5, 'restock-a'), await restock(otherCopyId, 10, 'restock-a')]) {
      expect(reused.statusCode).toBe(422);
      expect(reused.json().error.message).toBe('This Idempotency-Key was already used for a different restock; use a new key.');
    }
    expect([await quantity(copyId), await quantity(otherCopyId)]).toEqual([12, 2]);

    // A refused try writes nothing: the same key with fewer units is done.
    expect((await restock(otherCopyId, 1_000_000, 'restock-b')).statusCode).toBe(400);
    expect((await restock(otherCopyId, 3, 'restock-b')).json()).toEqual({ data: { quantity: 5 } });
    // Without a key, each restock is one more.
    await call('POST', `/api/employee/low-stock/${otherCopyId}/restock`, seller, { add: 1 });
    await call('POST', `/api/employee/low-stock/${otherCopyId}/restock`, seller, { add: 1 });
    expect(await quantity(otherCopyId)).toBe(7);
  });
});

describe('bulk export and import', () => {
  const csv = (text: string) => call('POST', '/api/employee/catalog/import', admin, text, { 'content-type': 'text/csv' });
  const check = async (text: string) => {
    const res = await csv(text);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  const until = async (id: number, done: (job: { status: string }) => boolean) => {
    for (let i = 0; i < 200; i++) {
      const job = await data('GET', `/api/employee/catalog/import/${id}`, admin);
      if (done(job)) return job;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('the import did not finish');
  };
  const copyOf = async (isbn13: string) =>
    (
      await t.db.query<{ price: string; quantity: number; is_available: boolean }>(
        'SELECT c.price::text, c.quantity, c.is_available FROM books b JOIN book_copies c ON c.book_id = b.id WHERE b.isbn13 = $1 ORDER BY c.id LIMIT 1',
        [isbn13],
      )
    )[0];

  it('exports every book with its copies as CSV, one row per copy, formulas defused', async () => {
    await newCopy({ name: '=HYPERLINK("http://evil.example")' });
    const res = await call('GET', '/api/employee/catalog/export.csv', admin);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="bookshop-books-\d{4}-\d{2}-\d{2}\.csv"$/);
    const rows = parse(res.body, { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0]!)).toEqual([
      'isbn',
      'title',
      'author',
      'category',
      'price',
      'stock',
      'available',
      'exported_stock',
      'exported_price',
      'exported_available',
      'copy_id',
      'exported_ledger',
    ]);
    const n = (
      await t.db.query<{ n: number }>(
        'SELECT (SELECT count(*) FROM book_copies) + (SELECT count(*) FROM books b WHERE NOT EXISTS (SELECT 1 FROM book_copies c WHERE c.book_id = b.id))::int AS n',
      )
    )[0]!.n;
    expect(rows).toHaveLength(Number(n));
    expect(rows.some((r) => r.title === `'=HYPERLINK("http://evil.example")`)).toBe(true);
    expect((await call('GET', '/api/employee/catalog/export.csv', seller)).statusCode).toBe(403);
  });

  it('checks a file first (new, changed, unchanged, invalid with reasons), writes nothing until the Admin confirms, then runs as a job', async () => {
    const [kept, changed, third] = await t.db.query<{ isbn13: string; price: string; quantity: number; is_available: boolean }>(
      `SELECT b.isbn13, c.price::text, c.quantity, c.is_available FROM books b JOIN book_copies c ON c.book_id = b.id
       WHERE b.isbn13 IS NOT NULL AND c.id = (SELECT min(id) FROM book_copies WHERE book_id = b.id) ORDER BY b.id LIMIT 3`,
    );
    // A book the bundled catalog knows but the shop no longer has: the import adds it back.
    const [gone] = await t.db.query<{ id: number; isbn13: string; name: string }>(
      `SELECT b.id, b.isbn13, b.name FROM books b WHERE b.isbn13 IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM order_items oi JOIN book_copies c ON c.id = oi.book_copy_id WHERE c.book_id = b.id) ORDER BY b.id DESC LIMIT 1`,
    );
    expect((await call('DELETE', `/api/employee/book/${gone!.id}`, admin)).statusCode).toBe(200);
    const file = [
      'ISBN,Price,Stock,Available,Note',
      `${kept!.isbn13},${kept!.price},${kept!.quantity},${kept!.is_available},same as the shop`,
      `${changed!.isbn13},123.45,${changed!.quantity + 5},false,"a note, with a comma"`,
      `${gone!.isbn13},8.50,4,yes,`,
      '9780000000001,1.00,1,true,bad check digit',
      `${kept!.isbn13},1.00,1,true,again`,
      `${third!.isbn13},1.999,1,true,`,
    ].join('\n');
    const job = await check(file);
    expect(job).toMatchObject({ status: 'checked', rows: 6, new: 1, changed: 1, unchanged: 1, invalid: 3, total: 2, processed: 0 });
    expect(job.invalidRows).toEqual([
      { line: 5, isbn: '9780000000001', reason: 'This is not a valid ISBN.' },
      { line: 6, isbn: kept!.isbn13, reason: 'This ISBN is on line 2 too.' },
      { line: 7, isbn: third!.isbn13, reason: 'Price must be 0 or more, with at most 2 decimals.' },
    ]);
    expect(await copyOf(changed!.isbn13)).toMatchObject({ price: changed!.price });
    expect((await t.db.query('SELECT 1 FROM books WHERE isbn13 = $1', [gone!.isbn13])).length).toBe(0);

    const refused = await call('POST', `/api/employee/catalog/import/${job.id}/run`, admin, { skipInvalid: false });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe('The file has invalid rows. Fix them, or choose to skip them.');
    expect((await call('POST', `/api/employee/catalog/import/${job.id}/run`, seller, { skipInvalid: true })).statusCode).toBe(403);

    const imported: unknown[] = [];
    t.app.catalogEvents.subscribe((event) => {
      if (event.type === 'catalog.imported') imported.push(event.changed);
    });
    const started = await data('POST', `/api/employee/catalog/import/${job.id}/run`, admin, { skipInvalid: true });
    expect(['running', 'done']).toContain(started.status);
    const finished = await until(job.id, (j) => j.status !== 'running');
    expect(finished).toMatchObject({ status: 'done', processed: 2, total: 2, error: null, finishedAt: expect.any(String) });
    expect(imported).toEqual([{ booksAdded: true, availabilityChanged: true }]);
    expect(await copyOf(changed!.isbn13)).toEqual({ price: '123.45', quantity: changed!.quantity + 5, is_available: false });
    expect(await copyOf(gone!.isbn13)).toEqual({ price: '8.50', quantity: 4, is_available: true });
    const [added] = await t.db.query<{ name: string }>('SELECT name FROM books WHERE isbn13 = $1', [gone!.isbn13]);
    expect(added!.name).toBe(gone!.name);

    const audited = await t.db.query<{ actor: string; entity: string }>(
      "SELECT actor, entity FROM security_events WHERE type = 'backoffice_write' AND at >= (SELECT created_at FROM import_jobs WHERE id = $1)",
      [job.id],
    );
    expect(audited.filter((e) => e.entity === 'BookCopy')).toHaveLength(2);
    expect(audited.filter((e) => e.entity === 'Book')).toHaveLength(1);
    expect(new Set(audited.map((e) => e.actor))).toEqual(new Set([`employee:${adminId}`]));

    const again = await call('POST', `/api/employee/catalog/import/${job.id}/run`, admin, { skipInvalid: true });
    expect(again.statusCode).toBe(409);
  });

  it('tells the projections what an import changed: prices and stock alone, a copy taken off sale, a book added', async () => {
    const imported: unknown[] = [];
    t.app.catalogEvents.subscribe((event) => {
      if (event.type === 'catalog.imported') imported.push(event.changed);
    });
    const [first, second] = await t.db.query<{ isbn13: string; quantity: number }>(
      `SELECT b.isbn13, c.quantity FROM books b JOIN book_copies c ON c.book_id = b.id
       WHERE b.isbn13 IS NOT NULL AND c.is_available AND c.id = (SELECT min(id) FROM book_copies WHERE book_id = b.id) ORDER BY b.id LIMIT 2`,
    );
    const runFile = async (text: string) => {
      const job = await check(text);
      await data('POST', `/api/employee/catalog/import/${job.id}/run`, admin, { skipInvalid: false });
      expect(await until(job.id, (j) => j.status !== 'running')).toMatchObject({ status: 'done' });
    };
    await runFile(`isbn,price,stock,available\n${first!.isbn13},31.00,${first!.quantity + 1},true\n${second!.isbn13},32.00,3,true`);
    await runFile(`isbn,price,stock,available\n${first!.isbn13},31.00,${first!.quantity + 1},false`);
    await runFile(`isbn,price,stock,available\n${first!.isbn13},31.00,${first!.quantity + 1},true`);
    expect(imported).toEqual([
      { booksAdded: false, availabilityChanged: false },
      { booksAdded: false, availabilityChanged: true },
      { booksAdded: false, availabilityChanged: true },
    ]);
  });

  it('writes nothing when a row fails half-way through the run', async () => {
    const books = await t.db.query<{ isbn13: string; quantity: number }>(
      `SELECT b.isbn13, c.quantity FROM books b JOIN book_copies c ON c.book_id = b.id
       WHERE b.isbn13 IS NOT NULL AND c.id = (SELECT min(id) FROM book_copies WHERE book_id = b.id) ORDER BY b.id DESC LIMIT 600`,
    );
    const job = await check(['isbn,price,stock,available', ...books.map((b) => `${b.isbn13},1.00,${b.quantity + 1},true`)].join('\n'));
    expect(job).toMatchObject({ changed: 600, invalid: 0 });
    // Fault injection: the last row now breaks the stock CHECK, in the second statement of the run,
    // after the first has written 500 rows and a progress step.
    await t.db.query(`UPDATE import_jobs SET plan = jsonb_set(plan, '{599,stock}', '-5') WHERE id = $1`, [job.id]);
    await data('POST', `/api/employee/catalog/import/${job.id}/run`, admin, { skipInvalid: false });
    const finished = await until(job.id, (j) => j.status !== 'running');
    expect(finished).toMatchObject({ status: 'failed', processed: 0 });
    expect(finished.error).toMatch(/nothing was written/);
    expect(JSON.stringify(finished)).not.toMatch(/constraint|violates|SQL|[Pp]risma/);
    expect((await copyOf(books[0]!.isbn13))!.quantity).toBe(books[0]!.quantity);
  });

  it("an Admin's new check replaces their check not run: a loop of checks keeps one plan, and the replaced one cannot run", async () => {
    const [book] = await t.db.query<{ isbn13: string }>('SELECT isbn13 FROM books WHERE isbn13 IS NOT NULL ORDER BY id LIMIT 1');
    const file = (price: string) => `ISBN,Price,Stock,Available\n${book!.isbn13},${price},5,true`;
    const checks = [];
    for (const price of ['11.00', '12.00', '13.00']) checks.push(await check(file(price)));
    const unrun = await t.db.query<{ id: number }>("SELECT id FROM import_jobs WHERE actor = $1 AND status = 'checked'", [
      `employee:${adminId}`,
    ]);
    expect(unrun.map((job) => job.id)).toEqual([checks[2].id]);
    const replaced = await call('POST', `/api/employee/catalog/import/${checks[0].id}/run`, admin, { skipInvalid: false });
    expect([replaced.statusCode, replaced.json().error.message]).toEqual([
      404,
      'No such import. A newer check replaces one not run: check the file again.',
    ]);
    await t.db.query('DELETE FROM import_jobs WHERE id = $1', [checks[2].id]);
  });

  it('refuses a check older than 30 minutes, and reports a run whose instance died as failed', async () => {
    const [book] = await t.db.query<{ isbn13: string }>('SELECT isbn13 FROM books WHERE isbn13 IS NOT NULL ORDER BY id LIMIT 1');
    const job = await check(`isbn,price,stock,available\n${book!.isbn13},77.00,7,constructor`);
    // A key of Object.prototype is no answer to 'available'.
    expect(job.invalidRows).toEqual([{ line: 2, isbn: book!.isbn13, reason: 'Available must be true or false.' }]);
    const fresh = await check(`isbn,price,stock,available\n${book!.isbn13},77.00,7,true`);
    await t.db.query("UPDATE import_jobs SET created_at = now() - interval '31 minutes' WHERE id = $1", [fresh.id]);
    const expired = await call('POST', `/api/employee/catalog/import/${fresh.id}/run`, admin, { skipInvalid: false });
    expect(expired.statusCode).toBe(409);
    expect(expired.json().error.message).toBe(
      'This check is more than 30 minutes old, and the shop may have changed since. Check the file again.',
    );

    // Marked running a minute ago, but no instance holds the import's lock: its transaction died with it.
    // Another database of the cluster (a staging copy) running an import of its own says nothing of it.
    await t.db.query("UPDATE import_jobs SET status = 'running', updated_at = now() - interval '1 minute' WHERE id = $1", [fresh.id]);
    const otherDatabase = new pg.Client({ connectionString: `${inject('pgBaseUrl')}/postgres` });
    await otherDatabase.connect();
    try {
      await otherDatabase.query('SELECT pg_advisory_lock(16016)');
      expect(await data('GET', `/api/employee/catalog/import/${fresh.id}`, admin)).toMatchObject({
        status: 'failed',
        processed: 0,
        error: 'The import stopped before it finished, and nothing was written. Check the file again to retry.',
      });
    } finally {
      await otherDatabase.end();
    }
  });

  it('refuses a run whose price the shop changed since the check, where the file changed it too: the save is not written over', async () => {
    const [copy] = await t.db.query<{ id: number; isbn13: string; price: string; quantity: number }>(
      `SELECT c.id, b.isbn13, c.price::text, c.quantity FROM books b JOIN book_copies c ON c.book_id = b.id
       WHERE b.isbn13 IS NOT NULL AND c.id = (SELECT min(id) FROM book_copies WHERE book_id = b.id) ORDER BY b.id OFFSET 7 LIMIT 1`,
    );
    const header = 'isbn,price,stock,available,exported_stock,exported_price,exported_available,copy_id';
    const row = `${copy!.isbn13},41.00,${copy!.quantity},true,${copy!.quantity},${copy!.price},true,${copy!.id}`;
    const job = await check(`${header}\n${row}`);
    expect(job).toMatchObject({ changed: 1, invalid: 0 });
    // Another Admin saves a price of their own after the check.
    await t.db.query("UPDATE book_copies SET price = '39.00' WHERE id = $1", [copy!.id]);
    await data('POST', `/api/employee/catalog/import/${job.id}/run`, admin, { skipInvalid: false });
    const finished = await until(job.id, (j) => j.status !== 'running');
    expect(finished).toMatchObject({
      status: 'failed',
      error: 'The price of line 2 changed in the shop since the check; check the file again.',
    });
    expect((await copyOf(copy!.isbn13))!.price).toBe('39.00');
  });

  it('an import the run committed stays done when its answer is lost after the commit: never reported as writing nothing', async () => {
    const [book] = await t.db.query<{ isbn13: string; quantity: number }>(
      `SELECT b.isbn13, c.quantity FROM books b JOIN book_copies c ON c.book_id = b.id
       WHERE b.isbn13 IS NOT NULL AND c.id = (SELECT min(id) FROM book_copies WHERE book_id = b.id) ORDER BY b.id LIMIT 1`,
    );
    const job = await check(`isbn,price,stock,available\n${book!.isbn13},14.00,${book!.quantity + 1},true`);
    await data('POST', `/api/employee/catalog/import/${job.id}/run`, admin, { skipInvalid: false });
    expect(await until(job.id, (j) => j.status !== 'running')).toMatchObject({ status: 'done' });
    // What the runner does when the commit's answer never comes back (the connection dropped after it).
    await catalogTransferRepository(t.app.prisma, t.app.databasePool).failed(
      job.id,
      'The import stopped before it finished, and nothing was written.',
    );
    expect(await data('GET', `/api/employee/catalog/import/${job.id}`, admin)).toMatchObject({ status: 'done', error: null });
  });

  it("finds each row's book by its ISBN through the ISBN's index, whatever the catalog's size", async () => {
    const [book] = await t.db.query<{ isbn13: string; quantity: number }>(
      `SELECT b.isbn13, c.quantity FROM books b JOIN book_copies c ON c.book_id = b.id
       WHERE b.isbn13 IS NOT NULL AND c.id = (SELECT min(id) FROM book_copies WHERE book_id = b.id) ORDER BY b.id LIMIT 1`,
    );
    const sent = await statements.during(async () => {
      const job = await check(`isbn,price,stock,available\n${book!.isbn13},12.00,${book!.quantity + 1},true`);
      await data('POST', `/api/employee/catalog/import/${job.id}/run`, admin, { skipInvalid: false });
      expect(await until(job.id, (j) => j.status !== 'running')).toMatchObject({ status: 'done' });
    });
    // Every statement that compares ISBNs, planned as for any values and with table scans ruled out
    // unless nothing else can answer: an ISBN sent as another type than the column's (char(13)) leaves
    // only a scan of every book, which at a million books took most of an import's time.
    const byIsbn = [...new Set(sent.filter((sql) => /isbn13 =/.test(sql)))];
    expect(byIsbn.length).toBeGreaterThanOrEqual(4);
    const client = new pg.Client({ connectionString: t.db.url });
    await client.connect();
    try {
      await client.query('SET enable_seqscan = off');
      for (const sql of byIsbn) {
        const { rows } = await client.query(`EXPLAIN (GENERIC_PLAN) ${sql}`);
        const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
        expect(plan, sql).not.toMatch(/Seq Scan on (books|book_copies)\b/);
      }
    } finally {
      await client.end();
    }
  });

  it('refuses a file that is not usable CSV, or lacks the columns, with a message the screen shows', async () => {
    const missing = await csv('isbn,price\n9780261103344,1.00');
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.message).toBe("The file's first line must name the columns isbn, price, stock, available.");
    const broken = await csv('isbn,price,stock,available\n"9780261103344,1.00,1,true');
    expect(broken.statusCode).toBe(400);
    expect(broken.json().error.message).toMatch(/^The file is not valid CSV: /);
    expect((await csv('isbn,price,stock,available\n')).json().error.message).toBe('The file has no rows under its header.');
    expect((await call('GET', '/api/employee/catalog/import/999999', admin)).statusCode).toBe(404);
  });
});

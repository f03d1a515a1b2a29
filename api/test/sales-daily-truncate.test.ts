// The day aggregates (sales_daily and its two siblings) are kept by row triggers, which a TRUNCATE does
// not fire. Emptied by hand, the orders must take their aggregates with them: the dashboard and the
// orders page count orders by summing sales_daily, and the charts and Low Stock read the other two.
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO, type TestApp } from './helpers.ts';

let t: TestApp;
let seller = '';
beforeAll(async () => {
  t = await createTestApp();
  seller = await t.login(DEMO.seller);
});

const rows = async (table: string) => Number((await t.db.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`))[0]!.n);
const staff = async (url: string) => (await t.app.inject({ method: 'GET', url, headers: { cookie: seller } })).json().data;

describe('orders emptied by TRUNCATE', () => {
  it('leave no order behind in the dashboard, the orders page or the day aggregates', async () => {
    expect((await staff('/api/employee/statistics/')).totalOrders).toBeGreaterThan(0);
    expect(await rows('sales_daily_copies')).toBeGreaterThan(0);
    // Only the lines first: the orders stay, their units sold go.
    await t.db.query('TRUNCATE order_items');
    expect(await rows('sales_daily_categories')).toBe(0);
    expect(await rows('sales_daily_copies')).toBe(0);
    expect((await staff('/api/employee/statistics/')).totalOrders).toBe(await rows('orders'));

    await t.db.query('TRUNCATE orders CASCADE');
    expect(await rows('sales_daily')).toBe(0);
    expect((await staff('/api/employee/statistics/')).totalOrders).toBe(0);
    expect((await staff('/api/employee/order/1,15')).totalPages).toBe(0);
  });
});

describe('the catalog emptied by TRUNCATE', () => {
  it('is refused above READ COMMITTED, where the counts could miss a change committed just before', async () => {
    const client = new pg.Client({ connectionString: t.db.url });
    await client.connect();
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
      await expect(client.query('TRUNCATE book_copies CASCADE')).rejects.toThrow(/READ COMMITTED only/);
      await client.query('ROLLBACK');
    } finally {
      await client.end();
    }
    expect((await staff('/api/employee/statistics/')).totalBooksCopies).toBe(await rows('book_copies'));
  });

  it('leaves no book or copy in the dashboard', async () => {
    expect((await staff('/api/employee/statistics/')).totalBooksCopies).toBeGreaterThan(0);
    await t.db.query('TRUNCATE book_copies CASCADE');
    expect(await staff('/api/employee/statistics/')).toMatchObject({ totalBooks: await rows('books'), totalBooksCopies: 0 });
    await t.db.query('TRUNCATE books CASCADE');
    expect(await staff('/api/employee/statistics/')).toMatchObject({ totalBooks: 0, totalBooksCopies: 0 });
    await t.db.query(`INSERT INTO books (name, search_text, author_id, type_id) SELECT 'Again', 'again', min(id), 1 FROM authors`);
    expect(await staff('/api/employee/statistics/')).toMatchObject({ totalBooks: 1, totalBooksCopies: 0 });
  });
});

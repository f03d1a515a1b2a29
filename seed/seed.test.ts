import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { emptyTestDatabase } from '../scripts/empty-test-database.ts';
import { applyMigrations } from '../scripts/lib/schema-engine.ts';
import { seedDatabase } from './seed.ts';

/** A fingerprint of every seeded table's content (password hashes aside: bcrypt salts them). */
async function fingerprint(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = {
      book_types: 'SELECT id, name FROM book_types ORDER BY id',
      authors: 'SELECT id, full_name FROM authors ORDER BY id',
      books: 'SELECT id, isbn13, name, published_at, ratings_count, ratings_sum, author_id, type_id FROM books ORDER BY id',
      book_copies: 'SELECT id, book_id, quantity, price, units_sold FROM book_copies ORDER BY id',
      clients: 'SELECT id, first_name, last_name, phone_number, account, created_at FROM clients ORDER BY id',
      employees: 'SELECT id, email, role FROM employees ORDER BY id',
      orders: 'SELECT id, client_id, status, total_quantity, total_price, created_at FROM orders ORDER BY id',
      order_items: 'SELECT id, order_id, book_copy_id, unit_price, quantity FROM order_items ORDER BY id',
    };
    const out: Record<string, { rows: number; md5: string }> = {};
    for (const [table, sql] of Object.entries(tables)) {
      const { rows } = await client.query<{ n: string; md5: string }>(
        `SELECT count(*) AS n, md5(string_agg(t::text, '|')) AS md5 FROM (${sql}) t`,
      );
      out[table] = { rows: Number(rows[0]!.n), md5: rows[0]!.md5 };
    }
    return out;
  } finally {
    await client.end();
  }
}

describe('seed', () => {
  it('seeds every book of books.csv and the demo data, and seeding twice gives the same data', async () => {
    const database = await emptyTestDatabase('seed');
    try {
      const { url } = database;
      await applyMigrations(url);
      await seedDatabase(url, () => {});
      const first = await fingerprint(url);
      expect(first.books!.rows).toBe(5143);
      expect(first.book_copies!.rows).toBe(5143);
      expect(first.book_types!.rows).toBe(10);
      expect(first.clients!.rows).toBeGreaterThanOrEqual(200);
      expect(first.orders!.rows).toBeGreaterThanOrEqual(2000);
      await seedDatabase(url, () => {});
      expect(await fingerprint(url)).toEqual(first);
    } finally {
      await database.drop();
    }
  });
});

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { passwordHasher } from '../api/src/modules/accounts/passwords.ts';
import { emptyTestDatabase } from '../scripts/empty-test-database.ts';
import { applyMigrations } from '../scripts/lib/schema-engine.ts';
import { parseBooksCsv } from './books-csv.ts';
import { replaceRefusal, seedDatabase } from './seed.ts';
import { DEMO_ACCOUNTS, planSeed } from './seed-data.ts';

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
      const day = '2026-11-01';
      await seedDatabase(url, () => {}, { day });
      const first = await fingerprint(url);
      expect(first.books!.rows).toBe(5143);
      expect(first.book_copies!.rows).toBe(5143);
      expect(first.book_types!.rows).toBe(10);
      expect(first.clients!.rows).toBeGreaterThanOrEqual(200);
      expect(first.orders!.rows).toBeGreaterThanOrEqual(2000);
      await seedDatabase(url, () => {}, { day });
      expect(await fingerprint(url)).toEqual(first);
    } finally {
      await database.drop();
    }
  });

  it("npm run db:seed replaces an empty or a demo database, and refuses a shop's own data without --replace", async () => {
    const database = await emptyTestDatabase('seed_refusal');
    const client = new pg.Client({ connectionString: database.url });
    try {
      await applyMigrations(database.url);
      expect(await replaceRefusal(database.url)).toBeNull();
      await client.connect();
      const employee = async (email: string, password: string) =>
        client.query(
          `INSERT INTO employees (first_name, last_name, gender, birth_date, email, phone_number, address, password_hash, role)
           VALUES ('Ann', 'Owner', 'Female', '1980-01-01', $1, '0555000000', '1 Main Street', $2, 'Admin')`,
          [email, await passwordHasher(4).hash(password)],
        );
      // A shop's own Admin, as ADMIN_EMAIL makes the first: its data is not the seed's to replace.
      await employee('owner@shop.example', 'a private passphrase');
      expect(await replaceRefusal(database.url)).toMatch(/npm run db:seed -- --replace/);
      // A shop first started as a demo, whose demo Admin chose a password of their own: not a demo any more.
      await employee(DEMO_ACCOUNTS.admin.email, 'another private passphrase');
      expect(await replaceRefusal(database.url)).toMatch(/npm run db:seed -- --replace/);
      // A demo database (its demo Admin with the demo password) is replaced as before.
      await client.query('UPDATE employees SET password_hash = $2 WHERE email = $1', [
        DEMO_ACCOUNTS.admin.email,
        await passwordHasher(4).hash(DEMO_ACCOUNTS.admin.password),
      ]);
      expect(await replaceRefusal(database.url)).toBeNull();
    } finally {
      await client.end();
      await database.drop();
    }
  });

  it('leaves every catalog projection with the planner statistics of what it holds', async () => {
    const database = await emptyTestDatabase('seed_statistics');
    try {
      const { url } = database;
      await applyMigrations(url);
      await seedDatabase(url, () => {}, { people: false });
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const { rows: projections } = await client.query<{ name: string }>(
          `SELECT 'browse_listing' AS name UNION ALL SELECT matviewname FROM pg_matviews WHERE schemaname = current_schema()`,
        );
        expect(projections.length).toBeGreaterThan(1);
        for (const { name } of projections) {
          // ANALYZE sets reltuples to the rows it counted (all of them, at the seed's size), and keeps
          // each column's statistics, which is what the planner's estimate of a filter comes from.
          const table = client.escapeIdentifier(name);
          const { rows } = await client.query<{ counted: string; estimated: number; columns: string }>(
            `SELECT (SELECT count(*) FROM ${table}) AS counted,
                    (SELECT reltuples FROM pg_class WHERE oid = $2::regclass) AS estimated,
                    (SELECT count(*) FROM pg_stats WHERE schemaname = current_schema() AND tablename = $1) AS columns`,
            [name, table],
          );
          const { counted, estimated, columns } = rows[0]!;
          expect({ name, estimated, withColumnStatistics: Number(columns) > 0 }).toEqual({
            name,
            estimated: Number(counted),
            withColumnStatistics: true,
          });
        }
      } finally {
        await client.end();
      }
    } finally {
      await database.drop();
    }
  });
});

describe('seed plan', () => {
  const DAY = 86_400_000;
  const dayOf = (d: Date) => d.toISOString().slice(0, 10);

  it('counts its orders back from the day it runs: the same for one day, the 30 days before it full, none on or after it', async () => {
    const csv = parseBooksCsv(await readFile(path.join(import.meta.dirname, 'books.csv'), 'utf8'));
    const plan = planSeed(csv, { day: '2026-11-25T16:00:00Z' });
    expect(planSeed(csv, { day: '2026-11-25T03:00:00Z' })).toEqual(plan);

    const start = Date.parse('2026-11-25T00:00:00Z');
    expect(plan.orders.every((o) => o.createdAt.getTime() < start && o.createdAt.getTime() >= start - 366 * DAY)).toBe(true);
    const days = new Set(plan.orders.map((o) => dayOf(o.createdAt)));
    for (let n = 1; n <= 29; n++) expect(days).toContain(dayOf(new Date(start - n * DAY)));

    // Another day moves every date by the days between and nothing else.
    const later = planSeed(csv, { day: '2026-12-05' });
    expect(later.orders.map((o) => o.createdAt.getTime() - 10 * DAY)).toEqual(plan.orders.map((o) => o.createdAt.getTime()));
    expect(later.orders.map((o) => o.items)).toEqual(plan.orders.map((o) => o.items));
  });
});

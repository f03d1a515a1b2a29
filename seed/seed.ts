// `npm run db:seed`: replaces the database's content with the demo catalog, accounts and order
// history, in one transaction, in batches. Run as a script, or call seedDatabase() (npm start does).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { passwordHasher } from '../api/src/modules/accounts/passwords.ts';
import { isMain } from '../scripts/lib/is-main.ts';
import { parseBooksCsv } from './books-csv.ts';
import { CATEGORIES, DEMO_ACCOUNTS, hashPasswords, planSeed, type SeedPlan } from './seed-data.ts';

const BATCH = 1000;
type Progress = (message: string) => void;

/**
 * The catalog projections (see the catalog_projections migration) follow a seeded catalog at once.
 * Every materialized view of the schema is one, so a new projection needs no change here; so is
 * browse_listing, a table kept from the copies noted since its last catch-up, caught up first because
 * browse_counts counts it (migration browse_listing_kept_by_changes).
 */
export async function refreshCatalogProjections(client: pg.Client) {
  while ((await client.query<{ more: boolean }>('SELECT more FROM browse_listing_catch_up()')).rows[0]!.more);
  const { rows } = await client.query<{ view: string }>(
    'SELECT quote_ident(matviewname) AS view FROM pg_matviews WHERE schemaname = current_schema() ORDER BY matviewname',
  );
  for (const { view } of rows) await client.query(`REFRESH MATERIALIZED VIEW ${view}`);
  // With their statistics: the seed's own ANALYZE ran before they were filled, so until autovacuum came
  // by the planner had no column statistics for them (a category's 2,131 copies in browse_listing were
  // planned as 19 rows).
  await client.query(`ANALYZE ${['browse_listing', ...rows.map(({ view }) => view)].join(', ')}`);
}

const EMPTY_DATABASE_SQL = `SELECT ${['book_types', 'authors', 'books', 'book_copies', 'employees', 'clients', 'orders']
  .map((table) => `NOT EXISTS (SELECT FROM ${table})`)
  .join(' AND ')} AS empty`;

/** Whether the database holds nothing the seed would replace: no catalog, no staff, no client, no order. */
export async function isDatabaseEmpty(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // Not the categories alone: only the seed writes them, so a shop started with SEED=false has none,
    // and the seed's TRUNCATE would then take its staff, clients and orders with it.
    const { rows } = await client.query<{ empty: boolean }>(EMPTY_DATABASE_SQL);
    return rows[0]!.empty;
  } finally {
    await client.end();
  }
}

/**
 * Why `npm run db:seed` must not replace this database's data, or null: it may when the database is
 * empty or is a demo (its demo Admin is there, with the demo password still). Anything else is a
 * shop's own data, which the seed's TRUNCATE would delete (DATABASE_URL pointed at production, say),
 * a shop first started as a demo whose Admin then chose a password of their own included; `--replace`
 * says it is meant.
 */
export async function replaceRefusal(url: string): Promise<string | null> {
  if (await isDatabaseEmpty(url)) return null;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let demoAdminHash: string | undefined;
  try {
    const { rows } = await client.query<{ password_hash: string }>('SELECT password_hash FROM employees WHERE email = $1', [
      DEMO_ACCOUNTS.admin.email,
    ]);
    demoAdminHash = rows[0]?.password_hash;
  } finally {
    await client.end();
  }
  // The cost is the hash's own: any hasher reads it.
  if (demoAdminHash && (await passwordHasher(10).verify(DEMO_ACCOUNTS.admin.password, demoAdminHash)).ok) return null;
  return (
    "This database holds data that is not the demo's (no demo Admin with the demo password): seeding would delete every " +
    'book, employee, client and order in it. To replace it anyway, run: npm run db:seed -- --replace'
  );
}

async function insertBatches<T>(rows: T[], write: (batch: T[], offset: number) => Promise<void>, onBatch?: (done: number) => void) {
  for (let offset = 0; offset < rows.length; offset += BATCH) {
    await write(rows.slice(offset, offset + BATCH), offset);
    onBatch?.(Math.min(offset + BATCH, rows.length));
  }
}

/**
 * `people: false` seeds the catalog only (categories, authors, books, copies): what a production
 * database starts with. The demo people (the demo accounts, 300 clients, their orders and messages)
 * carry published passwords, so they are seeded only on request. `day` pins the day the people's
 * dates count back from (default today): the orders fill the year before it.
 */
export async function seedDatabase(
  url: string,
  progress: Progress = console.log,
  { people = true, day }: { people?: boolean; day?: Date | string } = {},
) {
  const csv = parseBooksCsv(await readFile(path.join(import.meta.dirname, 'books.csv'), 'utf8'));
  const plan = planSeed(csv, { day });
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query(
      'TRUNCATE order_items, orders, sales_daily, sales_daily_categories, sales_daily_copies, cart_items, refresh_tokens, session_families, throttle_counters, security_events, login_names, contact_messages, book_copies, books, authors, book_types, clients, employees RESTART IDENTITY CASCADE',
    );
    await client.query('INSERT INTO book_types (name) SELECT unnest($1::text[])', [CATEGORIES]);
    await insertBatches(plan.authors, (batch) =>
      client.query('INSERT INTO authors (full_name) SELECT unnest($1::text[])', [batch]).then(() => {}),
    );

    await insertBatches(
      plan.books,
      async (batch) => {
        const col = <K extends keyof (typeof batch)[number]>(k: K) => batch.map((b) => b[k]);
        await client.query(
          `INSERT INTO books (isbn13, name, published_at, description, image_url, search_text, ratings_count, ratings_sum, author_id, type_id)
           SELECT * FROM unnest($1::text[], $2::text[], $3::date[], $4::text[], $5::text[], $6::text[], $7::int[], $8::bigint[], $9::int[], $10::int[])`,
          [
            col('isbn13'),
            col('name'),
            col('publishedAt'),
            col('description'),
            col('imageUrl'),
            col('searchText'),
            col('ratingsCount'),
            col('ratingsSum'),
            batch.map((b) => b.authorIndex + 1),
            batch.map((b) => b.typeIndex + 1),
          ],
        );
      },
      (done) => progress(`seeding books: ${done} of ${plan.books.length}`),
    );
    // Book i (1-based id i) gets copy i.
    await client.query(
      `INSERT INTO book_copies (book_id, price, quantity, is_available)
       SELECT n, p, q, true FROM unnest($1::numeric[], $2::int[]) WITH ORDINALITY AS t(p, q, n) ORDER BY n`,
      [plan.copies.map((c) => c.price), plan.copies.map((c) => c.quantity)],
    );
    if (people) await seedPeople(client, plan, progress);
    await client.query('COMMIT');
    // Bulk inserts sit in the GIN (trigram) indexes' pending lists until a vacuum; until then the
    // planner prices those indexes too high and scans books instead. Vacuum now, not eventually.
    await client.query('VACUUM ANALYZE');
    await refreshCatalogProjections(client);
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    await client.end();
  }
}

/** The demo accounts, clients, their orders (with units sold) and contact messages. */
async function seedPeople(client: pg.Client, plan: SeedPlan, progress: Progress) {
  const hashes = await hashPasswords([...plan.employees.map((e) => e.password), DEMO_ACCOUNTS.client.password]);

  for (const e of plan.employees) {
    await client.query(
      'INSERT INTO employees (first_name, last_name, gender, birth_date, email, phone_number, address, password_hash, role) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9)',
      [e.firstName, e.lastName, e.gender, e.birthDate, e.email, e.phoneNumber, e.address, hashes.get(e.password), e.role],
    );
  }
  const clientHash = hashes.get(DEMO_ACCOUNTS.client.password)!;
  await client.query(
    `INSERT INTO clients (first_name, last_name, phone_number, account, created_at, password_hash)
       SELECT f, l, p, a, c, $6 FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[]) AS t(f, l, p, a, c)`,
    [
      plan.clients.map((c) => c.firstName),
      plan.clients.map((c) => c.lastName),
      plan.clients.map((c) => c.phoneNumber),
      plan.clients.map((c) => c.account),
      plan.clients.map((c) => c.createdAt),
      clientHash,
    ],
  );
  progress(`seeding ${plan.clients.length} clients and ${plan.employees.length} employees: done`);

  const price = (copyIndex: number) => Math.round(Number(plan.copies[copyIndex]!.price) * 100);
  await insertBatches(
    plan.orders,
    async (batch, offset) => {
      const totals = batch.map((o) => ({
        quantity: o.items.reduce((s, i) => s + i.quantity, 0),
        cents: o.items.reduce((s, i) => s + price(i.copyIndex) * i.quantity, 0),
      }));
      await client.query(
        `INSERT INTO orders (client_id, status, shipment_address, total_quantity, total_price, created_at)
           SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::int[], $5::numeric[], $6::timestamptz[])`,
        [
          batch.map((o) => o.clientIndex + 1),
          batch.map((o) => o.status),
          batch.map((o) => o.address),
          totals.map((t) => t.quantity),
          totals.map((t) => (t.cents / 100).toFixed(2)),
          batch.map((o) => o.createdAt),
        ],
      );
      const items = batch.flatMap((o, i) => o.items.map((item) => ({ orderId: offset + i + 1, ...item })));
      await client.query(
        `INSERT INTO order_items (order_id, book_copy_id, name, image_url, unit_price, quantity, type_id)
           SELECT t.o, t.c, b.name, b.image_url, bc.price, t.q, b.type_id
           FROM unnest($1::int[], $2::int[], $3::int[]) WITH ORDINALITY AS t(o, c, q, n)
           JOIN book_copies bc ON bc.id = t.c JOIN books b ON b.id = bc.book_id
           ORDER BY t.n`,
        [items.map((i) => i.orderId), items.map((i) => i.copyIndex + 1), items.map((i) => i.quantity)],
      );
    },
    (done) => progress(`seeding orders: ${done} of ${plan.orders.length}`),
  );
  await client.query(`
      UPDATE book_copies bc SET units_sold = s.units
      FROM (SELECT oi.book_copy_id, sum(oi.quantity) AS units FROM order_items oi JOIN orders o ON o.id = oi.order_id
            WHERE o.status NOT IN ('cancelled', 'failed') GROUP BY oi.book_copy_id) s
      WHERE bc.id = s.book_copy_id`);
  await client.query(
    'INSERT INTO contact_messages (user_name, account, message, created_at) SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[])',
    [
      plan.messages.map((m) => m.userName),
      plan.messages.map((m) => m.account),
      plan.messages.map((m) => m.message),
      plan.messages.map((m) => m.createdAt),
    ],
  );
}

if (isMain(import.meta.url)) {
  const { withDatabase } = await import('../scripts/lib/database.ts');
  await withDatabase(async (url) => {
    const refusal = process.argv.includes('--replace') ? null : await replaceRefusal(url);
    if (refusal) {
      console.error(refusal);
      process.exitCode = 1;
      return;
    }
    const started = Date.now();
    await seedDatabase(url);
    console.log(`seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });
}

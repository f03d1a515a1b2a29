// What issue 32's mix draws its calls from, read from the bench's database once: the categories and
// their busiest authors, copies to open, copies for carts (their stock raised so that checkouts never
// run out, kept apart from the import's), signed-in shoppers and an Admin, and the import's file.
import pg from 'pg';
import { buildApp } from '../../api/src/app.ts';
import { loadConfig } from '../../api/src/config.ts';
import { seedDatabase } from '../../seed/seed.ts';
import { applyMigrations } from '../lib/schema-engine.ts';
import type { MixWorld } from './mix.ts';
import { startReplicableCluster } from './replica.ts';

const SIGNED_IN_SHOPPERS = 40;
const CART_COPIES = 200;
const IMPORT_ROWS = 1000;
/** An access token lives 10 minutes (sessions/tokens.ts): the shoppers sign in again well before. */
const RENEW_AFTER_MS = 5 * 60_000;

/**
 * A throwaway cluster, able to start a streaming standby, holding the database `name` migrated and
 * seeded: what every mix bench starts from (day.ts grows it before making it ready).
 */
export async function seededCluster(name: string) {
  const cluster = await startReplicableCluster();
  const admin = new pg.Client({ connectionString: `${cluster.baseUrl}/postgres` });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const primaryUrl = `${cluster.baseUrl}/${name}`;
  await applyMigrations(primaryUrl);
  await seedDatabase(primaryUrl, () => {});
  return { cluster, primaryUrl };
}

/**
 * The seeded mix database `name`, made ready (prepareMixDatabase), and a streaming standby copied
 * from it: what the fixed-rate scripts (import-bursts.ts, scale-out-cost.ts) run on. day.ts starts
 * its standby later, after the runs that need none.
 */
export async function mixDatabaseWithStandby(name: string) {
  const { cluster, primaryUrl } = await seededCluster(name);
  await prepareMixDatabase(primaryUrl);
  const standbyUrl = `${await cluster.startStandby()}/${name}`;
  return { cluster, primaryUrl, standbyUrl };
}

/**
 * The mix's database made ready as a shop's would be: statistics gathered, the projections built,
 * pg_stat_statements on (a standby copied from it has it too), and a checkpoint, so that no step
 * pays for them.
 */
export async function prepareMixDatabase(databaseUrl: string) {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query('VACUUM ANALYZE');
    await db.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    const app = await buildApp(loadConfig({ NODE_ENV: 'test', DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' }), { logger: false });
    await app.ready();
    await app.catalogProjections.refresh();
    await app.close();
    await db.query('CHECKPOINT');
  } finally {
    await db.end();
  }
}

/** Signs in through the server's own endpoint and answers the cookies it sets. */
async function signIn(base: string, account: string, password: string) {
  const response = await fetch(`${base}/api/public/authentication/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account, password }),
  });
  if (!response.ok) throw new Error(`sign-in of ${account}: ${response.status} ${await response.text()}`);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0]!)
    .join('; ');
}

/** `signInAt`: the server the shoppers first sign in at (later sign-ins go to the server measured then). */
export async function mixWorld(databaseUrl: string, signInAt: string) {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows: categories } = await db.query<{ name: string; authorIds: number[] }>(
      `SELECT t.name, (SELECT array_agg(author_id) FROM (
                         SELECT b.author_id FROM books b WHERE b.type_id = t.id GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 3) a) AS "authorIds"
       FROM book_types t ORDER BY t.id`,
    );
    // Copies to open: a fixed pseudo-random sample of those on sale.
    const { rows: open } = await db.query<{ id: number }>(
      'SELECT id FROM book_copies WHERE is_available ORDER BY md5(id::text) LIMIT 5000',
    );
    const { rows: cart } = await db.query<{ id: number; cents: number }>(
      `UPDATE book_copies SET quantity = 1000000
       WHERE id IN (SELECT id FROM book_copies WHERE is_available ORDER BY md5('cart' || id) LIMIT $1)
       RETURNING id, (price * 100)::int AS cents`,
      [CART_COPIES],
    );
    // The import's rows: books with an ISBN and one copy, no cart's.
    const { rows: imported } = await db.query<{ isbn13: string; price: string; quantity: number; available: boolean }>(
      `SELECT b.isbn13, c.price::text AS price, c.quantity, c.is_available AS available
       FROM books b JOIN book_copies c ON c.book_id = b.id
       WHERE b.isbn13 IS NOT NULL AND c.id <> ALL($1::int[])
         AND (SELECT count(*) FROM book_copies o WHERE o.book_id = b.id) = 1
       ORDER BY md5('import' || b.id) LIMIT $2`,
      [cart.map((c) => c.id), IMPORT_ROWS],
    );
    const { rows: shoppers } = await db.query<{ id: number; account: string }>(
      "SELECT id, account FROM clients WHERE account LIKE '%@%' ORDER BY id LIMIT $1",
      [SIGNED_IN_SHOPPERS],
    );
    // Their carts start empty, as the mix's record of them does.
    await db.query('DELETE FROM cart_items WHERE client_id = ANY($1::int[])', [shoppers.map((s) => s.id)]);
    let imports = 0;
    const world: MixWorld & { renew(at?: string): Promise<void> } = {
      categories,
      copyIds: open.map((c) => c.id),
      cartCopies: cart,
      clients: [],
      carts: shoppers.map(() => []),
      tally: { ordersPlaced: 0, linesOrdered: 0, importsWritten: 0, importRowsWritten: 0, signIns: 0 },
      employee: '',
      // Each import moves every row's stock by one, up then down, so each one changes all its rows.
      importCsv: () => {
        const shift = imports++ % 2 === 0 ? 1 : 0;
        return ['isbn,price,stock,available', ...imported.map((r) => `${r.isbn13},${r.price},${r.quantity + shift},${r.available}`)].join(
          '\n',
        );
      },
      async renew(at = signInAt) {
        // One at a time: the shop turns away a crowd of sign-ins (503 BUSY) to keep password hashing bounded.
        const signedIn: string[] = [];
        for (const shopper of shoppers) signedIn.push(await signIn(at, shopper.account, 'Client123!'));
        world.clients.splice(0, world.clients.length, ...signedIn);
        world.employee = await signIn(at, 'admin@bookshop.test', 'Admin123!');
        world.tally.signIns += shoppers.length + 1;
        renewedAt = Date.now();
      },
    };
    let renewedAt = 0;
    await world.renew();
    return {
      world,
      /** Signs everyone in again when their access tokens are near their end (call between runs). */
      keepSignedIn: async (at: string) => {
        if (Date.now() - renewedAt > RENEW_AFTER_MS) await world.renew(at);
      },
    };
  } finally {
    await db.end();
  }
}

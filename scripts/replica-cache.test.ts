// The catalog cache with a real streaming standby as the catalog's read replica (the bench's
// replica.ts: a copy of the stopped primary, streaming its WAL). A change's notice can arrive before
// the standby has replayed the change: the answer read from the standby then is the old one, and must
// not be kept. Here the standby's replay is paused across a change to make that moment last.
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../api/src/app.ts';
import { loadConfig } from '../api/src/config.ts';
import {
  CATALOG_CHANGED_CHANNEL,
  type CachedReadDependence,
  refreshedNotice,
  replayTarget,
  soldNotice,
} from '../api/src/plugins/catalog-cache.ts';
import { type ReplicableCluster, startReplicableCluster } from './bench/replica.ts';
import { applyMigrations } from './lib/schema-engine.ts';

const DATABASE = 'replica_cache';
let cluster: ReplicableCluster;
let primary: pg.Client;
let standby: pg.Client;
let app: Awaited<ReturnType<typeof buildApp>>;
let copyId: number;

const until = async (what: string, done: () => Promise<boolean>) => {
  for (let i = 0; i < 300; i++) {
    if (await done()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`waited 15 s for ${what}`);
};
const priceServed = async () => {
  const answer = await app.inject({ url: `/api/public/book-copy/by-id/${copyId}` });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json().data.price as number;
};
/** How many times two reads of one key went to the database: 1 when the cache kept the first answer. */
const loadsOfTwoReads = async (server: typeof app, key: string, dependence?: CachedReadDependence, answer: unknown = null) => {
  let loads = 0;
  const load = async () => {
    loads++;
    return answer;
  };
  await server.catalogCache.read(key, load, dependence);
  await server.catalogCache.read(key, load, dependence);
  return loads;
};
/** An answer that shows one copy's stock, as a category page's card does, and how such a read depends on stock. */
const showing = (copy: number) => ({ data: [{ id: copy, quantity: 4 }] });
const SHOWN = { stock: 'shown', projections: [] } as const;
/** The same for an answer that shows one copy's stock. */
const loadsOfTwoReadsShowing = (key: string, copy: number) => loadsOfTwoReads(app, key, SHOWN, showing(copy));
const standbyPrice = async () => Number((await standby.query('SELECT price FROM book_copies WHERE id = $1', [copyId])).rows[0].price);

beforeAll(async () => {
  cluster = await startReplicableCluster();
  const admin = new pg.Client({ connectionString: `${cluster.baseUrl}/postgres` });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${DATABASE}`);
  await admin.end();
  const primaryUrl = `${cluster.baseUrl}/${DATABASE}`;
  await applyMigrations(primaryUrl);
  const standbyUrl = `${await cluster.startStandby()}/${DATABASE}`;
  primary = new pg.Client({ connectionString: primaryUrl });
  standby = new pg.Client({ connectionString: standbyUrl });
  await Promise.all([primary.connect(), standby.connect()]);
  const { rows } = await primary.query<{ id: number }>(`
    WITH a AS (INSERT INTO authors (full_name) VALUES ('Ursula K. Le Guin') RETURNING id),
         t AS (INSERT INTO book_types (name) VALUES ('Fantasy') RETURNING id),
         b AS (INSERT INTO books (name, search_text, author_id, type_id)
               SELECT 'A Wizard of Earthsea', 'a wizard of earthsea ursula k le guin', a.id, t.id FROM a, t RETURNING id)
    INSERT INTO book_copies (book_id, quantity, price) SELECT id, 5, 10 FROM b RETURNING id`);
  copyId = rows[0]!.id;
  await until(
    'the standby to have the book',
    async () => (await standby.query('SELECT 1 FROM book_copies WHERE id = $1', [copyId])).rowCount === 1,
  );
  app = await buildApp(
    loadConfig({ NODE_ENV: 'test', DATABASE_URL: primaryUrl, DATABASE_REPLICA_URL: standbyUrl, CATALOG_CACHE_MS: '60000' }),
    { logger: false },
  );
  await app.ready();
  await until('the cache to hear the notices', async () => app.catalogCache.active);
}, 180_000);

afterAll(async () => {
  await app?.close();
  await Promise.all([primary?.end(), standby?.end()]);
  await cluster?.stop();
});

it('keeps no answer the standby gave before it replayed a change, and keeps answers again once it has', {
  timeout: 60_000,
}, async () => {
  expect(await priceServed()).toBe(10);
  await standby.query('SELECT pg_wal_replay_pause()');
  try {
    await primary.query('UPDATE book_copies SET price = 20 WHERE id = $1', [copyId]);
    // The notice is heard at once; the standby, paused, still has the old price, and serves it.
    await new Promise((r) => setTimeout(r, 300));
    expect(await standbyPrice()).toBe(10);
    expect(await priceServed()).toBe(10);
    // Nothing is kept while the standby is behind: every read goes to it.
    expect(await loadsOfTwoReads(app, 'probe')).toBe(2);
  } finally {
    await standby.query('SELECT pg_wal_replay_resume()');
  }
  await until('the standby to replay the change', async () => (await standbyPrice()) === 20);
  // Once it has, the change is served (a kept old answer would say 10 for the cache's whole minute)...
  await until('the new price to be served', async () => (await priceServed()) === 20);
  // ... and answers are kept again.
  let attempt = 0;
  await until('answers to be kept again', async () => (await loadsOfTwoReads(app, `probe ${++attempt}`)) === 1);
});

it('stays off when the replica is not a standby (nothing could say what it has replayed)', async () => {
  const notStandby = await buildApp(
    loadConfig({
      NODE_ENV: 'test',
      DATABASE_URL: `${cluster.baseUrl}/${DATABASE}`,
      DATABASE_REPLICA_URL: `${cluster.baseUrl}/${DATABASE}`,
      CATALOG_CACHE_MS: '60000',
    }),
    { logger: false },
  );
  try {
    await notStandby.ready();
    await new Promise((r) => setTimeout(r, 300));
    expect(notStandby.catalogCache.active).toBe(false);
    expect(await loadsOfTwoReads(notStandby, 'probe')).toBe(2);
  } finally {
    await notStandby.close();
  }
});

it('while the standby is behind a change, still serves what the change left kept, and keeps only new answers it does not reach', {
  timeout: 60_000,
}, async () => {
  let loads = 0;
  // Reads no projection: a refresh of the suggestions leaves it kept.
  const detail = () => app.catalogCache.read('reads no projection', async () => ++loads, { projections: [] });
  let previous = -1;
  await until('the answer to be kept', async () => {
    const now = await detail();
    const same = now === previous;
    previous = now;
    return same;
  });
  const keptLoads = loads;
  await standby.query('SELECT pg_wal_replay_pause()');
  try {
    // WAL the paused standby has not replayed (a change of stock alone announces nothing), then a refresh's notice.
    await primary.query('UPDATE book_copies SET quantity = quantity + 1 WHERE id = $1', [copyId]);
    await primary.query('SELECT pg_notify($1, $2)', [CATALOG_CHANGED_CHANNEL, refreshedNotice('search_suggestions')]);
    let attempt = 0;
    // A new answer that does not say what it reads may read the suggestions, as the standby had them: not kept.
    await until(
      'the notice to be heard (a new answer it reaches is no longer kept)',
      async () => (await loadsOfTwoReads(app, `behind ${++attempt}`)) === 2,
    );
    expect(await detail()).toBe(keptLoads);
    expect(loads).toBe(keptLoads);
    // One that reads no projection is kept: the refresh changed nothing it shows.
    expect(await loadsOfTwoReads(app, 'new, reads no projection', { projections: [] })).toBe(1);
  } finally {
    await standby.query('SELECT pg_wal_replay_resume()');
  }
});

it('while the standby is behind a sale, keeps a new answer that shows none of the copies sold, and not one that shows one', {
  timeout: 60_000,
}, async () => {
  let attempt = 0;
  await until("the earlier tests' changes to be replayed", async () => (await loadsOfTwoReads(app, `before ${++attempt}`)) === 1);
  /** Loads of an answer showing `copy`, held until released: one can begin before the replay and end after. */
  const loadsOf = new Map<number, number>();
  const releases: (() => void)[] = [];
  const held = (copy: number) =>
    app.catalogCache.read(
      `held across the replay, showing ${copy}`,
      () => {
        loadsOf.set(copy, (loadsOf.get(copy) ?? 0) + 1);
        return new Promise<ReturnType<typeof showing>>((done) => {
          releases.push(() => done(showing(copy)));
        });
      },
      SHOWN,
    );
  const started: Promise<unknown>[] = [];
  await standby.query('SELECT pg_wal_replay_pause()');
  try {
    await primary.query('UPDATE book_copies SET quantity = quantity - 1 WHERE id = $1', [copyId]);
    await primary.query('SELECT pg_notify($1, $2)', [CATALOG_CHANGED_CHANNEL, soldNotice([copyId])]);
    // The standby still shows the copy's stock before the sale: an answer showing it is read each time...
    await until(
      'the notice to be heard (a new answer showing the copy is no longer kept)',
      async () => (await loadsOfTwoReadsShowing(`shows the copy sold ${++attempt}`, copyId)) === 2,
    );
    // ... and one showing another copy is kept, as without a replica.
    expect(await loadsOfTwoReadsShowing('shows another copy', copyId + 1)).toBe(1);
    expect(await loadsOfTwoReads(app, 'reads no stock', { stock: 'none' })).toBe(1);
    started.push(held(copyId), held(copyId + 1));
  } finally {
    await standby.query('SELECT pg_wal_replay_resume()');
  }
  await until(
    'an answer showing the copy to be kept again',
    async () => (await loadsOfTwoReadsShowing(`replayed ${++attempt}`, copyId)) === 1,
  );
  // A load that began before the replay may hold the stock before the sale: a read from now on does not share it...
  started.push(held(copyId));
  expect(loadsOf.get(copyId)).toBe(2);
  for (const release of releases) release();
  await Promise.all(started);
  // ... but one that, once loaded, shows none of the copies sold is kept all the same.
  await held(copyId + 1);
  expect(loadsOf.get(copyId + 1)).toBe(1);
});

it("reads a WAL position, and counts a position just past a page's header as the page's start (where a standby stops)", () => {
  expect(replayTarget('16/B374D848')).toBe((0x16n << 32n) + 0xb374d848n);
  // 8 KB pages: 0x2000028 is 40 bytes into its page, 0x2000030 48.
  expect(replayTarget('0/2000028')).toBe(0x2000000n);
  expect(replayTarget('0/2000030')).toBe(0x2000030n);
  expect(replayTarget('1/0')).toBe(1n << 32n);
});

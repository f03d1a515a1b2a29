// The catalog cache with a real streaming standby as the catalog's read replica (the bench's
// replica.ts: a copy of the stopped primary, streaming its WAL). A change's notice can arrive before
// the standby has replayed the change: the answer read from the standby then is the old one, so the
// cache forgets what the change reaches only once the standby has it, answers loaded meanwhile
// included. Here the standby's replay is paused across a change to make that moment last.
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
/** An answer kept under `key`, and how many times the cache has loaded it. */
const counted = (key: string, dependence?: CachedReadDependence, answer?: unknown) => {
  let loads = 0;
  const read = () =>
    app.catalogCache.read(
      key,
      async () => {
        loads++;
        return answer ?? loads;
      },
      dependence,
    );
  return {
    read,
    loads: () => loads,
    /** Reads until the cache loads the answer a second time: the first load was forgotten. */
    forgotten: (what: string) =>
      until(what, async () => {
        await read();
        return loads === 2;
      }),
  };
};
/** An answer that shows one copy's stock, as a category page's card does, and how such a read depends on stock. */
const showing = (copy: number) => ({ data: [{ id: copy, quantity: 4 }] });
const SHOWN = { stock: 'shown', projections: [] } as const;
const standbyPrice = async () => Number((await standby.query('SELECT price FROM book_copies WHERE id = $1', [copyId])).rows[0].price);
/** Runs `work` with the standby's replay paused, and resumes it whatever happens. */
const whileStandbyPaused = async (work: () => Promise<void>) => {
  await standby.query('SELECT pg_wal_replay_pause()');
  try {
    // Asked for, not done: the state says once the standby's replay has stopped.
    await until(
      'the standby to pause',
      async () => (await standby.query('SELECT pg_get_wal_replay_pause_state() AS state')).rows[0].state === 'paused',
    );
    await work();
  } finally {
    await standby.query('SELECT pg_wal_replay_resume()');
  }
};
/** WAL the paused standby has not replayed (a change of stock alone announces nothing), then `notices`, heard by the cache. */
const unreplayedChange = async (...notices: string[]) => {
  await primary.query('UPDATE book_copies SET quantity = quantity + 1 WHERE id = $1', [copyId]);
  for (const notice of notices) await primary.query('SELECT pg_notify($1, $2)', [CATALOG_CHANGED_CHANNEL, notice]);
  await new Promise((r) => setTimeout(r, 300));
};
/** Until the standby has replayed everything the primary has written so far (the earlier tests' changes). */
const standbyCaughtUp = async () => {
  const { rows } = await primary.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn');
  const target = replayTarget(rows[0]!.lsn);
  await until('the standby to replay what the primary has', async () => {
    const replayed = (await standby.query<{ lsn: string }>('SELECT pg_last_wal_replay_lsn()::text AS lsn')).rows[0]!.lsn;
    return replayTarget(replayed) >= target;
  });
  // And the cache's next ask of its position, which forgets what those changes reach.
  await until('the cache to know the standby has every change it heard', async () => app.catalogCache.awaitingReplica === 0);
};

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

it('serves what a change reaches as the standby has it until the standby has replayed the change, then forgets it', {
  timeout: 60_000,
}, async () => {
  const before = counted('kept before the change');
  const meanwhile = counted('loaded while the standby is behind');
  // The cache starts by forgetting what it may have loaded before it listened, once the standby has
  // what the primary had then: a read kept before that is forgotten at a moment of the standby's choosing.
  await standbyCaughtUp();
  expect(await priceServed()).toBe(10);
  await before.read();
  const loadsBefore = before.loads();
  await whileStandbyPaused(async () => {
    await primary.query('UPDATE book_copies SET price = 20 WHERE id = $1', [copyId]);
    // The notice is heard at once; the standby, paused, still has the old price, and serves it...
    await new Promise((r) => setTimeout(r, 300));
    expect(await standbyPrice()).toBe(10);
    expect(await priceServed()).toBe(10);
    // An operator sees the change waiting for the replica.
    const metrics = await app.inject({ url: '/api/metrics' });
    expect(metrics.body).toMatch(/^catalog_cache_changes_awaiting_replica 1$/m);
    // ... so what was kept is still served, and a new answer is kept and shared: each read would get the same from it.
    await before.read();
    expect(before.loads()).toBe(loadsBefore);
    await meanwhile.read();
    await meanwhile.read();
    expect(meanwhile.loads()).toBe(1);
  });
  await until('the standby to replay the change', async () => (await standbyPrice()) === 20);
  const replayedAt = performance.now();
  // Once it has, the change is served (a kept old answer would say 10 for the cache's whole minute),
  // after the cache's next ask of the standby's position (at most 250 ms apart). The bound only rules
  // out the minute, with room for a loaded machine; the asks' pace is not checked here...
  await until('the new price to be served', async () => (await priceServed()) === 20);
  expect(performance.now() - replayedAt).toBeLessThan(3_000);
  // ... and both answers are read again, the one loaded while it was behind included.
  await before.read();
  await meanwhile.read();
  expect([before.loads(), meanwhile.loads()]).toEqual([loadsBefore + 1, 2]);
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

it('once the standby has a refresh, forgets the answers that read the projection, and keeps those that do not', {
  timeout: 60_000,
}, async () => {
  await standbyCaughtUp();
  // Reads no projection: a refresh of the suggestions leaves it kept.
  const detail = counted('reads no projection', { projections: [] });
  // Does not say what it reads: any refresh reaches it.
  const unsaid = counted('does not say what it reads');
  await detail.read();
  await unsaid.read();
  await whileStandbyPaused(async () => {
    await unreplayedChange(refreshedNotice('search_suggestions'));
    await unsaid.read();
    expect(unsaid.loads()).toBe(1);
  });
  await unsaid.forgotten('the refresh to be forgotten, once replayed');
  await detail.read();
  expect(detail.loads()).toBe(1);
});

it('once the standby has a sale, forgets the answers that show a copy sold, those still loading included, and keeps the others', {
  timeout: 60_000,
}, async () => {
  await standbyCaughtUp();
  const showsSold = counted('shows the copy sold', SHOWN, showing(copyId));
  const showsOther = counted('shows another copy', SHOWN, showing(copyId + 1));
  const readsNoStock = counted('reads no stock', { stock: 'none' });
  for (const answer of [showsSold, showsOther, readsNoStock]) await answer.read();
  /** Loads of an answer, held until released: one can begin before the replay and end after. */
  const heldLoads = { shown: 0, none: 0 };
  const releases: (() => void)[] = [];
  const heldRead = (stock: 'shown' | 'none') =>
    app.catalogCache.read(
      `held across the replay, ${stock}`,
      () => {
        heldLoads[stock]++;
        return new Promise<ReturnType<typeof showing>>((done) => {
          releases.push(() => done(showing(copyId)));
        });
      },
      { ...SHOWN, stock },
    );
  const held = () => heldRead('shown');
  const started: Promise<unknown>[] = [];
  await whileStandbyPaused(async () => {
    await primary.query('UPDATE book_copies SET quantity = quantity - 1 WHERE id = $1', [copyId]);
    await primary.query('SELECT pg_notify($1, $2)', [CATALOG_CHANGED_CHANNEL, soldNotice([copyId])]);
    await new Promise((r) => setTimeout(r, 300));
    // The standby still shows the stock before the sale, and so does the cache.
    await showsSold.read();
    expect(showsSold.loads()).toBe(1);
    started.push(held(), held(), heldRead('none'));
  });
  await showsSold.forgotten('the sale to be forgotten, once replayed');
  // A load that began before the replay may hold the stock before the sale: a read from now on does not share it.
  started.push(held(), heldRead('none'));
  // ... while one that reads no stock still shares the load that began before.
  expect(heldLoads).toEqual({ shown: 2, none: 1 });
  for (const release of releases) release();
  await Promise.all(started);
  await held();
  await heldRead('none');
  expect(heldLoads).toEqual({ shown: 2, none: 1 });
  for (const answer of [showsOther, readsNoStock]) await answer.read();
  expect([showsOther.loads(), readsNoStock.loads()]).toEqual([1, 1]);
});

it('past a hundred changes waiting, merges them into one that reaches every answer, forgotten once the standby has them all', {
  timeout: 60_000,
}, async () => {
  await standbyCaughtUp();
  // Shows a copy that none of the changes sold: only the merge reaches it.
  const untouched = counted('shows a copy none of the changes sold', SHOWN, showing(copyId + 2));
  await untouched.read();
  await whileStandbyPaused(async () => {
    await unreplayedChange(...Array.from({ length: 101 }, () => soldNotice([copyId + 1])));
    // Merged, but still waiting for the paused standby: kept and served.
    await untouched.read();
    expect(untouched.loads()).toBe(1);
  });
  await untouched.forgotten('the merged changes to be forgotten, once replayed');
});

it('when the standby does not tell its position within a second, forgets the waiting changes at once', { timeout: 60_000 }, async () => {
  await standbyCaughtUp();
  const answer = counted('kept while the standby cannot tell its position');
  await answer.read();
  await whileStandbyPaused(async () => {
    // Every connection of the replica's pool busy for 4 s: the cache's ask of the standby's position waits behind them.
    const busy = Array.from({ length: app.config.database.poolSize }, () => app.catalogSql.query('SELECT pg_sleep(4)'));
    try {
      await primary.query('UPDATE book_copies SET quantity = quantity + 1 WHERE id = $1', [copyId]);
      await primary.query('SELECT pg_notify($1, $2)', [CATALOG_CHANGED_CHANNEL, '']);
      const heardAt = performance.now();
      // Forgotten although the paused standby has not replayed the change: nothing says it has not.
      await answer.forgotten('the change to be forgotten');
      // Within the ask's 1 s, well before the pool's own wait for a connection gives up (3 s).
      expect(performance.now() - heardAt).toBeLessThan(2_000);
      expect((await standby.query('SELECT pg_is_wal_replay_paused() AS paused')).rows[0].paused).toBe(true);
    } finally {
      await Promise.all(busy);
    }
  });
});

// Last: the standby is promoted, and streams no more.
it('once the standby is promoted, forgets each change as it comes, as without a replica', { timeout: 60_000 }, async () => {
  await standbyCaughtUp();
  const answer = counted('kept before the promotion');
  await answer.read();
  await answer.read();
  expect(answer.loads()).toBe(1);
  await standby.query('SELECT pg_promote()');
  // A change the promoted server never gets: its replay position, frozen, never passes the primary's.
  await primary.query('SELECT pg_notify($1, $2)', [CATALOG_CHANGED_CHANNEL, '']);
  await answer.forgotten('the change to be forgotten');
});

it("reads a WAL position, and counts a position just past a page's header as the page's start (where a standby stops)", () => {
  expect(replayTarget('16/B374D848')).toBe((0x16n << 32n) + 0xb374d848n);
  // 8 KB pages: 0x2000028 is 40 bytes into its page, 0x2000030 48.
  expect(replayTarget('0/2000028')).toBe(0x2000000n);
  expect(replayTarget('0/2000030')).toBe(0x2000030n);
  expect(replayTarget('1/0')).toBe(1n << 32n);
});

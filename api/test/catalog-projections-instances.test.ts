// The projections' refreshes with two instances on one database (decision 15): a burst of sales taken
// by both costs one refresh of browse_listing, whoever runs it; a failed refresh is tried again; and
// browse_counts is refreshed in browse_listing's catch-up when it moved copies, and only then. The database itself
// counts the refreshes (an event trigger on REFRESH MATERIALIZED VIEW, and a wrapper around
// browse_listing's catch-up, a table's), so the plugin cannot misreport.
// Then the pacing by cost (decision 7): a long refresh recorded by any instance keeps the scheduled
// ones waiting for its rest, they run one at a time, each leaving its own; a waiting refresh holds no
// connection; an explicit refresh waits for none of it. Held by the times the database recorded, not
// by how long the test slept.
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import {
  ALL_PROJECTIONS,
  MAX_REFRESH_SHARE,
  PROJECTION_REFRESH_DELAYS_MS,
  REFRESH_LOCK_CLASS,
  REFRESH_TURN_LOCK,
} from '../src/plugins/catalog-projections.ts';
import { createTestApp } from './helpers.ts';

const SALES_REFRESH_SECONDS = 1;
const env = { SALES_REFRESH_SECONDS: String(SALES_REFRESH_SECONDS) };
const t = await createTestApp({ env });
/** Another instance of the shop on the same database. */
const anotherInstance = () =>
  buildApp(
    loadConfig({ NODE_ENV: 'test', DATABASE_URL: t.db.url, FIREBASE_AUTH_EMULATOR_HOST: t.config.firebaseAuthEmulatorHost!, ...env }),
  );
const second = await anotherInstance();
await second.ready();
afterAll(() => second.close());

beforeAll(async () => {
  // refresh_attempts counts every REFRESH that ran, committed or not (a sequence ignores rollbacks);
  // refreshes_done one row per committed one; while refresh_failing holds a row, each REFRESH fails.
  await t.db.query(`
    CREATE SEQUENCE refresh_attempts;
    CREATE TABLE refreshes_done (projection text NOT NULL);
    CREATE TABLE refresh_failing (projection text NOT NULL);
    CREATE FUNCTION count_refresh() RETURNS event_trigger LANGUAGE plpgsql AS $$
    DECLARE command record; BEGIN
      FOR command IN SELECT * FROM pg_event_trigger_ddl_commands() LOOP
        PERFORM nextval('refresh_attempts');
        IF EXISTS (SELECT 1 FROM refresh_failing WHERE 'public.' || projection = command.object_identity) THEN
          RAISE EXCEPTION 'refresh of % failed on purpose', command.object_identity;
        END IF;
        INSERT INTO refreshes_done VALUES (split_part(command.object_identity, '.', 2));
      END LOOP;
    END $$;
    CREATE EVENT TRIGGER count_refreshes ON ddl_command_end WHEN TAG IN ('REFRESH MATERIALIZED VIEW') EXECUTE FUNCTION count_refresh();
    -- browse_listing is a table caught up by a function: the same counting, around the function as shipped.
    -- The sales here are events alone (nothing sold, nothing noted), so it says what catch_up_moves_copies
    -- says: as if each had put a copy on sale (browse_counts follows), unless a test says otherwise.
    CREATE TABLE catch_up_moves_copies (moves boolean NOT NULL);
    INSERT INTO catch_up_moves_copies VALUES (true);
    ALTER FUNCTION browse_listing_catch_up(integer) RENAME TO browse_listing_catch_up_as_shipped;
    CREATE FUNCTION browse_listing_catch_up(most integer DEFAULT 100000, OUT rewritten bigint, OUT membership_changed boolean, OUT more boolean)
    LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM nextval('refresh_attempts');
      IF EXISTS (SELECT 1 FROM refresh_failing WHERE projection = 'browse_listing') THEN
        RAISE EXCEPTION 'refresh of browse_listing failed on purpose';
      END IF;
      INSERT INTO refreshes_done VALUES ('browse_listing');
      SELECT shipped.rewritten, shipped.membership_changed, shipped.more INTO rewritten, membership_changed, more
      FROM browse_listing_catch_up_as_shipped(most) shipped;
      IF (SELECT moves FROM catch_up_moves_copies) THEN
        rewritten := greatest(rewritten, 1);
        membership_changed := true;
      END IF;
    END $$;
  `);
});

const refreshes = async (projection: string) =>
  (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM refreshes_done WHERE projection = $1', [projection]))[0]!.n;
const attempts = async () => (await t.db.query<{ n: number }>('SELECT last_value::int AS n FROM refresh_attempts'))[0]!.n;
const sale = (app: typeof second, orderId: number) => app.catalogEvents.emit({ type: 'order.placed', orderId });
/** Waits until `done` holds, up to `ms`; false if it never did. */
const until = async (done: () => Promise<boolean>, ms: number) => {
  for (const start = Date.now(); Date.now() - start < ms; await sleep(50)) if (await done()) return true;
  return done();
};
/** How long a refresh asked for now can take at most: the gathering, a retry after the lock, the refresh. */
const SETTLE_MS = SALES_REFRESH_SECONDS * 1000 * 4 + 2_000;

it('a burst of sales alternating between two instances costs one refresh of browse_listing', async () => {
  const before = await refreshes('browse_listing');
  // The second instance's first sale comes halfway through the first's gathering, so its own
  // gathering ends after the first's refresh has begun (and, on the seed catalog, ended).
  for (let order = 1; order <= 6; order++) {
    sale(order % 2 ? t.app : second, order);
    await sleep(order === 1 ? SALES_REFRESH_SECONDS * 500 : 50);
  }
  expect(await until(async () => (await refreshes('browse_listing')) > before, SETTLE_MS)).toBe(true);
  // Both instances' gatherings have ended (and any retry after the lock) by now: still one.
  await sleep(SETTLE_MS);
  expect(await refreshes('browse_listing')).toBe(before + 1);
  expect(await refreshes('browse_counts')).toBeGreaterThan(0);
});

it('a sale after the last refresh began is not taken as covered by it: it refreshes again', async () => {
  const before = await refreshes('browse_listing');
  sale(second, 7);
  expect(await until(async () => (await refreshes('browse_listing')) > before, SETTLE_MS)).toBe(true);
  await sleep(SETTLE_MS);
  expect(await refreshes('browse_listing')).toBe(before + 1);
});

it('a failed refresh is tried again, without another sale asking', async () => {
  await t.db.query("INSERT INTO refresh_failing VALUES ('browse_listing')");
  const tried = await attempts();
  const before = await refreshes('browse_listing');
  sale(t.app, 8);
  expect(await until(async () => (await attempts()) > tried, SETTLE_MS)).toBe(true);
  expect(await refreshes('browse_listing')).toBe(before);
  const counts = await refreshes('browse_counts');
  await t.db.query('DELETE FROM refresh_failing');
  // Backoff from the sales' gathering: the second try comes within twice it, and its counts follow.
  expect(await until(async () => (await refreshes('browse_listing')) > before, SETTLE_MS)).toBe(true);
  expect(await until(async () => (await refreshes('browse_counts')) > counts, SETTLE_MS)).toBe(true);
});

it('browse_counts is refreshed in the transaction of the catch-up that moved copies: when it fails, both are tried again', async () => {
  await t.db.query("INSERT INTO refresh_failing VALUES ('browse_counts')");
  const tried = await attempts();
  const listing = await refreshes('browse_listing');
  const counts = await refreshes('browse_counts');
  sale(second, 9);
  // The catch-up ran, then the counts failed: the catch-up's own count rolled back with them.
  expect(await until(async () => (await attempts()) > tried + 1, SETTLE_MS)).toBe(true);
  expect(await refreshes('browse_listing')).toBe(listing);
  await t.db.query('DELETE FROM refresh_failing');
  expect(await until(async () => (await refreshes('browse_counts')) > counts, SETTLE_MS)).toBe(true);
  expect(await refreshes('browse_listing')).toBe(listing + 1);
  expect(await refreshes('browse_counts')).toBe(counts + 1);
});

it("when another instance holds browse_counts, browse_listing's catch-up (which may refresh it) waits, and runs once it is free", async () => {
  const listing = await refreshes('browse_listing');
  const counts = await refreshes('browse_counts');
  const lock = ALL_PROJECTIONS.indexOf('browse_counts');
  // The other instance, as far as the lock goes (an explicit refresh of the counts): a session of our own holding it.
  const other = new pg.Client({ connectionString: t.db.url });
  await other.connect();
  try {
    await other.query('SELECT pg_advisory_lock($1::int, $2::int)', [REFRESH_LOCK_CLASS, lock]);
    sale(second, 14);
    await sleep(SALES_REFRESH_SECONDS * 2000);
    expect(await refreshes('browse_listing')).toBe(listing);
    await other.query('SELECT pg_advisory_unlock($1::int, $2::int)', [REFRESH_LOCK_CLASS, lock]);
    expect(await until(async () => (await refreshes('browse_counts')) > counts, SETTLE_MS)).toBe(true);
    expect(await refreshes('browse_listing')).toBe(listing + 1);
  } finally {
    await other.end();
  }
});

it('a catch-up that moved no copy on or off sale, or between categories or authors, leaves browse_counts alone', async () => {
  await t.db.query('UPDATE catch_up_moves_copies SET moves = false');
  try {
    const listing = await refreshes('browse_listing');
    const counts = await refreshes('browse_counts');
    sale(t.app, 10);
    expect(await until(async () => (await refreshes('browse_listing')) > listing, SETTLE_MS)).toBe(true);
    // browse_counts would follow in the same turn, at once.
    await sleep(SALES_REFRESH_SECONDS * 1000);
    expect(await refreshes('browse_counts')).toBe(counts);
  } finally {
    await t.db.query('UPDATE catch_up_moves_copies SET moves = true');
  }
});

it('a backlog of more notes than a catch-up takes is caught up in turns, without another change asking', async () => {
  const listing = await refreshes('browse_listing');
  const home = await refreshes('home_list_candidates');
  // 20 notes of every copy: past the 100,000 a catch-up takes by default.
  await t.db.query('INSERT INTO browse_listing_changes (copy_id) SELECT c.id FROM book_copies c, generate_series(1, 20)');
  const left = async () => (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM browse_listing_changes'))[0]!.n;
  expect(await left()).toBeGreaterThan(100_000);
  sale(t.app, 15);
  // The second turn comes after the rest the first one leaves (until four times its length from its
  // start); on a loaded machine, with the room the budgets leave here, turns of up to about 10 s pass.
  expect(await until(async () => (await left()) === 0, SETTLE_MS + 60_000)).toBe(true);
  expect(await refreshes('browse_listing')).toBe(listing + 2);
  // The sale also set off the home lists' refresh (at their own delay, after the turns' rests): the
  // next test counts refreshes from its own start, so this one's has run, and its rest is waited out.
  expect(await until(async () => (await refreshes('home_list_candidates')) > home, SETTLE_MS + 10_000)).toBe(true);
  const [rest] = await t.db.query<{ ms: number | null }>(
    'SELECT (extract(epoch FROM max(rest_until) - clock_timestamp()) * 1000)::float8 AS ms FROM projection_refreshes',
  );
  await sleep(Math.max(0, rest?.ms ?? 0) + 100);
}, 120_000);

/** Each projection's last refresh, as recorded: when it began, what it took and the rest it left (ms since the epoch). */
const recorded = async () =>
  t.db.query<{ projection: string; startedAt: number; tookMs: number | null; restUntil: number | null }>(
    `SELECT projection, extract(epoch FROM started_at)::float8 * 1000 AS "startedAt", took_ms AS "tookMs",
            extract(epoch FROM rest_until)::float8 * 1000 AS "restUntil"
     FROM projection_refreshes ORDER BY started_at`,
  );
/** Records that `projection` began `agoMs` ago and took `tookMs`, as a refresh by another instance would have, with its rest. */
const recordRefresh = async (projection: string, agoMs: number, tookMs: number) =>
  (
    await t.db.query<{ restUntil: number }>(
      `INSERT INTO projection_refreshes AS r (projection, started_at, took_ms, rest_until)
       SELECT $1, now, $3::int, now + $3::int * interval '1 ms' / $4::float8
       FROM (SELECT clock_timestamp() - $2::int * interval '1 ms' AS now) n
       ON CONFLICT (projection) DO UPDATE SET started_at = excluded.started_at, took_ms = excluded.took_ms, rest_until = excluded.rest_until
       RETURNING extract(epoch FROM r.rest_until)::float8 * 1000 AS "restUntil"`,
      [projection, agoMs, tookMs, MAX_REFRESH_SHARE],
    )
  )[0]!.restUntil;

it('a long refresh by another instance keeps the scheduled refreshes waiting for its rest; they run one at a time, each leaving its own', async () => {
  const listing = await refreshes('browse_listing');
  const home = await refreshes('home_list_candidates');
  const counts = await refreshes('browse_counts');
  // search_shortcuts began 1 s ago and took 1 s: the scheduled refreshes rest until 1 s / MAX_REFRESH_SHARE after it began.
  const restUntil = await recordRefresh('search_shortcuts', 1000, 1000);
  sale(t.app, 11);
  sale(second, 12);
  expect(await until(async () => (await refreshes('browse_listing')) > listing, SETTLE_MS + 4000)).toBe(true);
  expect(await until(async () => (await refreshes('home_list_candidates')) > home, SETTLE_MS)).toBe(true);
  expect(await until(async () => (await refreshes('browse_counts')) > counts, SETTLE_MS)).toBe(true);
  const rows = (await recorded()).filter((row) => row.startedAt >= restUntil);
  // browse_counts within browse_listing's catch-up, in its transaction: no record of its own.
  expect(rows.map((row) => row.projection).sort()).toEqual(['browse_listing', 'home_list_candidates']);
  // None began before the rest ended, none overlapped, and each left a rest of its own time over the
  // share, from the rest before it when that was later.
  let restBefore = restUntil;
  let endBefore = restUntil;
  for (const row of rows) {
    expect(row.startedAt).toBeGreaterThanOrEqual(endBefore);
    expect(row.startedAt).toBeGreaterThanOrEqual(restBefore);
    const rest = Math.max(row.startedAt, restBefore) + row.tookMs! / MAX_REFRESH_SHARE;
    expect(Math.abs(row.restUntil! - rest), row.projection).toBeLessThan(3);
    restBefore = row.restUntil!;
    endBefore = row.startedAt + row.tookMs!;
  }
  // And each once: the second instance found its sales taken in.
  await sleep(SETTLE_MS);
  expect(await refreshes('browse_listing')).toBe(listing + 1);
  expect(await refreshes('home_list_candidates')).toBe(home + 1);
});

it('a scheduled refresh waits for the turn another holds without holding a connection, then refreshes', async () => {
  const listing = await refreshes('browse_listing');
  const other = new pg.Client({ connectionString: t.db.url });
  await other.connect();
  try {
    await other.query('SELECT pg_advisory_lock($1::int, $2::int)', [REFRESH_LOCK_CLASS, REFRESH_TURN_LOCK]);
    sale(second, 13);
    // No session of the shop's waits for a lock or sits in a transaction meanwhile. A retry's look at
    // the turn is a moment's transaction and may be caught between its statements, so what counts is
    // a transaction seen in both of two looks a second apart, after the turn was asked for (at 1 s).
    const waiting = async () =>
      (
        await t.db.query<{ held: string }>(
          `SELECT pid || ' ' || xact_start AS held FROM pg_stat_activity
           WHERE datname = current_database() AND (wait_event_type = 'Lock' OR state LIKE 'idle in transaction%')`,
        )
      ).map((row) => row.held);
    await sleep(SALES_REFRESH_SECONDS * 2000);
    const firstLook = await waiting();
    await sleep(1000);
    const secondLook = await waiting();
    expect(await refreshes('browse_listing')).toBe(listing);
    expect(secondLook.filter((held) => firstLook.includes(held))).toEqual([]);
    await other.query('SELECT pg_advisory_unlock($1::int, $2::int)', [REFRESH_LOCK_CLASS, REFRESH_TURN_LOCK]);
    expect(await until(async () => (await refreshes('browse_listing')) > listing, SETTLE_MS)).toBe(true);
  } finally {
    await other.end();
  }
});

it('an explicit refresh runs at once during a rest, and leaves the rest as it was', async () => {
  // A rest of an hour: no scheduled refresh would run.
  const restUntil = await recordRefresh('search_vocabulary', 0, 15 * 60_000);
  try {
    const home = await refreshes('home_list_candidates');
    const homeRow = async () => (await recorded()).find((row) => row.projection === 'home_list_candidates');
    const restBefore = (await homeRow())?.restUntil ?? null;
    await t.app.catalogProjections.refresh(['home_list_candidates']);
    expect(await refreshes('home_list_candidates')).toBe(home + 1);
    const refreshed = (await homeRow())!;
    expect(refreshed.startedAt).toBeLessThan(restUntil);
    expect(refreshed.tookMs).toBeGreaterThanOrEqual(0);
    // Its own rest as it was (a scheduled refresh left over from an earlier test may still add to others').
    expect(refreshed.restUntil).toBe(restBefore);
  } finally {
    await t.db.query("UPDATE projection_refreshes SET rest_until = NULL WHERE projection = 'search_vocabulary'");
  }
});

it('orders that keep coming during the rest wait with the refresh they find waiting: it is tried once, not every few seconds', async () => {
  // An instance of its own, so that only its refreshes are counted: each try is one transaction.
  const fourth = await anotherInstance();
  await fourth.ready();
  const tries = vi.spyOn(fourth.prisma, '$transaction');
  // A rest of an hour: each view's first try finds it and waits it out.
  await recordRefresh('search_vocabulary', 0, 15 * 60_000);
  try {
    // An order every half second for three times the home lists' delay: without the rest holding them, the
    // home lists' refresh was pulled in and tried every 5 s, and browse_listing's every second (a sale that
    // came while its try ran scheduled a new wait, which the try's long one merged into).
    const homeDelayMs = PROJECTION_REFRESH_DELAYS_MS.home_list_candidates;
    for (let order = 100; order < 100 + (3 * homeDelayMs) / 500; order++) {
      sale(fourth, order);
      await sleep(500);
    }
    // browse_listing once and the home lists once (a try that finds another instance's turn looks again).
    expect(tries.mock.calls.length).toBeGreaterThanOrEqual(2);
    expect(tries.mock.calls.length).toBeLessThanOrEqual(3);
  } finally {
    await fourth.close();
    await t.db.query("UPDATE projection_refreshes SET rest_until = NULL WHERE projection = 'search_vocabulary'");
  }
});

it('a closed instance schedules nothing more: a sale it hears while closing sets no timer for the ended pool', async () => {
  const third = await anotherInstance();
  await third.ready();
  await third.close();
  const timers = vi.spyOn(globalThis, 'setTimeout');
  try {
    sale(third, 10);
    expect(timers).not.toHaveBeenCalled();
  } finally {
    timers.mockRestore();
  }
});

it('a refresh an instance was waiting for when it stopped is run by the next instance to start, and the change is then forgotten', async () => {
  await t.db.query('UPDATE projection_refreshes SET rest_until = NULL');
  const noted = async () =>
    (await t.db.query<{ projection: string }>('SELECT projection FROM projection_changes ORDER BY projection')).map(
      (row) => row.projection,
    );
  const stopping = await anotherInstance();
  await stopping.ready();
  const before = await refreshes('home_list_candidates');
  // A restock, heard by this instance alone (events are in-process): its refreshes wait 5 and 15 s.
  stopping.catalogEvents.emit({ type: 'copy.restocked', copyId: 1 });
  expect(await until(async () => (await noted()).length === 2, 2_000)).toBe(true);
  expect(await noted()).toEqual(['browse_listing', 'home_list_candidates']);
  await stopping.close();

  const next = await anotherInstance();
  await next.ready();
  try {
    const due = PROJECTION_REFRESH_DELAYS_MS.home_list_candidates + SETTLE_MS;
    expect(await until(async () => (await refreshes('home_list_candidates')) > before, due)).toBe(true);
    expect(await until(async () => !(await noted()).includes('home_list_candidates'), SETTLE_MS)).toBe(true);
  } finally {
    await next.close();
  }
});

it('an instance that cannot read the changes noted as it starts (a failover) reads them again later, and refreshes what they name', async () => {
  await t.db.query('UPDATE projection_refreshes SET rest_until = NULL');
  const before = await refreshes('home_list_candidates');
  await t.db.query("INSERT INTO projection_changes VALUES ('home_list_candidates', clock_timestamp())");
  await t.db.query('ALTER TABLE projection_changes RENAME TO projection_changes_away');
  const late = await anotherInstance();
  try {
    await late.ready();
    await t.db.query('ALTER TABLE projection_changes_away RENAME TO projection_changes');
    // Its first read failed: the next comes 5 s later, and the list's delay has passed by then.
    expect(await until(async () => (await refreshes('home_list_candidates')) > before, 5_000 + SETTLE_MS)).toBe(true);
  } finally {
    await t.db.query('ALTER TABLE IF EXISTS projection_changes_away RENAME TO projection_changes');
    await late.close();
  }
});

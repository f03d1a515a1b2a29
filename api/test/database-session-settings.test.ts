// The session settings the API sends as it connects (time zone UTC, statement, lock and idle-in-
// transaction timeouts) can be dropped by what stands between it and the database: PgBouncer drops
// them when told to ignore them (measured with PgBouncer 1.18: every timeout 0 and the server's own
// time zone), and node-postgres takes a database URL's `options` over the API's. The API then
// refuses to start, naming what is lacking, instead of running without timeouts or with shifted times.
import pg from 'pg';
import { expect, inject, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { ConfigError, loadConfig } from '../src/config.ts';
import { sessionSettingsProblem } from '../src/plugins/prisma.ts';
import { createTestDatabase } from './helpers.ts';

const db = await createTestDatabase();
/** A default of the test's database, as an operator sets one on the API's role. */
const setOnDatabase = (setting: string, value: string) =>
  db.query(`ALTER DATABASE ${new URL(db.url).pathname.slice(1)} SET ${setting} = '${value}'`);
const configFor = (databaseUrl: string) =>
  loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl,
    FIREBASE_PROJECT_ID: 'demo-bookshop',
    FIREBASE_AUTH_EMULATOR_HOST: inject('emulatorHost'),
  });

it("names each setting a pool's sessions lack, and nothing when they have them", async () => {
  // As behind a pooler that drops the startup settings: the database's own defaults, another time zone among them.
  await setOnDatabase('TimeZone', 'America/New_York');
  const bare = new pg.Pool({ connectionString: db.url, max: 1 });
  try {
    expect(await sessionSettingsProblem(bare, 'primary')).toBe(
      "The primary database's sessions lack TimeZone UTC (it is America/New_York), statement_timeout, lock_timeout, " +
        'idle_in_transaction_session_timeout, which the API sets as it connects: something between drops them ' +
        "(PgBouncer's ignore_startup_parameters, or options or statement_timeout in the database URL). Set them on the " +
        'database role (ALTER ROLE ... SET); see docs/operations.md, "Scaling out".',
    );
    // A zone at UTC's offset in winter only is not UTC: from March on, times would be an hour off.
    await setOnDatabase('TimeZone', 'Europe/London');
    const london = new pg.Pool({ connectionString: db.url, max: 1 });
    try {
      expect(await sessionSettingsProblem(london, 'primary')).toMatch(
        /^The primary database's sessions lack TimeZone UTC \(it is Europe\/London\), statement_timeout/,
      );
    } finally {
      await london.end();
    }
    // Set on the database (as on a role) instead, they are there.
    await setOnDatabase('TimeZone', 'Etc/UTC');
    await setOnDatabase('statement_timeout', '5s');
    await setOnDatabase('lock_timeout', '2s');
    await setOnDatabase('idle_in_transaction_session_timeout', '20s');
    const settled = new pg.Pool({ connectionString: db.url, max: 1 });
    try {
      expect(await sessionSettingsProblem(settled, 'primary')).toBeNull();
    } finally {
      await settled.end();
    }
  } finally {
    await bare.end();
  }
});

it("refuses to start on a database URL whose options replace the API's time zone, and starts on the plain one", async () => {
  const shifted = `${db.url}?options=${encodeURIComponent('-c TimeZone=Asia/Tokyo')}`;
  const refusal = await buildApp(configFor(shifted)).then(
    () => null,
    (error: unknown) => error,
  );
  expect(refusal).toBeInstanceOf(ConfigError);
  expect((refusal as Error).message).toMatch(/^The primary database's sessions lack TimeZone UTC \(it is Asia\/Tokyo\), which/);

  const app = await buildApp(configFor(db.url));
  await app.close();
});

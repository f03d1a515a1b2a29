// The production entry point (the Docker image's command): migrate DATABASE_URL, seed the catalog
// when it is empty (unless SEED=false; the demo people too only with SEED_DEMO=true), check the
// accounts (the first Admin from ADMIN_EMAIL/ADMIN_PASSWORD; no demo password in use), then serve
// the API and the built web app.
import { applyMigrations, MigrationLockError } from './lib/schema-engine.ts';
import { startSignals } from './lib/start-signals.ts';
import { acquireStartupLock } from './lib/startup-lock.ts';

const url = process.env.DATABASE_URL;
if (!url) {
  console.error('DATABASE_URL must be set');
  process.exit(1);
}
// Fail on bad configuration before touching the database.
const { ConfigError, loadConfig } = await import('../api/src/config.ts');
let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
// Anything but true or false is refused: the seed runs on an empty database only, but a typo of
// false ('False', '0') must not be read as true.
const seed = process.env.SEED || 'true'; // empty is unset, as an env file's `SEED=` writes it
if (seed !== 'true' && seed !== 'false') {
  console.error(`SEED must be true or false (it is ${JSON.stringify(seed)})`);
  process.exit(1);
}
// A stop during the start ends it, but not in the middle of a migration (lib/start-signals.ts).
const signals = startSignals();
// One instance at a time migrates, seeds and checks the accounts; the others wait their turn.
const startupLock = await acquireStartupLock(url);
const applied = await applyMigrations(url, { attempt: signals.uninterrupted }).catch((error: unknown) => {
  if (!(error instanceof MigrationLockError)) throw error;
  console.error(`Refusing to start: ${error.message}`);
  process.exit(1);
});
console.log(applied.length ? `applied migrations: ${applied.join(', ')}` : 'database schema is up to date');
if (seed === 'true') {
  const { isDatabaseEmpty, seedDatabase } = await import('../seed/seed.ts');
  if (await isDatabaseEmpty(url)) await seedDatabase(url, console.log, { people: config.seedDemo });
}
const { AccountSetupError, prepareProductionAccounts } = await import('./lib/production-accounts.ts');
try {
  await prepareProductionAccounts(url, config);
} catch (error) {
  if (!(error instanceof AccountSetupError)) throw error;
  console.error(`Refusing to start: ${error.message}`);
  process.exit(1);
}
await startupLock.release();
// The server installs its own graceful shutdown while it starts: this start's answer stays until it listens.
await import('../api/src/server.ts');
signals.release();

// The production entry point (the Docker image's command): migrate DATABASE_URL, seed it when it is
// empty (unless SEED=false), then serve the API and the built web app.
import { applyMigrations } from './lib/schema-engine.ts';

const url = process.env.DATABASE_URL;
if (!url) {
  console.error('DATABASE_URL must be set');
  process.exit(1);
}
// Fail on bad configuration before touching the database.
const { ConfigError, loadConfig } = await import('../api/src/config.ts');
try {
  loadConfig();
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
const applied = await applyMigrations(url);
console.log(applied.length ? `applied migrations: ${applied.join(', ')}` : 'database schema is up to date');
if (process.env.SEED !== 'false') {
  const { isDatabaseEmpty, seedDatabase } = await import('../seed/seed.ts');
  if (await isDatabaseEmpty(url)) await seedDatabase(url);
}
await import('../api/src/server.ts');

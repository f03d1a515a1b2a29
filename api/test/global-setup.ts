// Once per test run: a throwaway PostgreSQL (embedded, or TEST_DATABASE_URL's server) holding a
// migrated and seeded template database, and a real identity emulator. Each test file then clones
// the template into a database of its own (see helpers.ts), so files run in parallel in isolation.
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startTestCluster } from '../../scripts/lib/database.ts';
import { startIdentityEmulator } from '../../scripts/lib/identity-emulator.ts';
import { applyMigrations } from '../../scripts/lib/schema-engine.ts';
import { seedDatabase } from '../../seed/seed.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgBaseUrl: string;
    templateDatabase: string;
    emulatorHost: string;
  }
}

export default async function setup(project: TestProject) {
  const cluster = await startTestCluster();
  const template = `bookshop_template_${process.pid}`;
  const admin = new pg.Client({ connectionString: `${cluster.baseUrl}/postgres` });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${template}`);
  await admin.query(`CREATE DATABASE ${template}`);
  await applyMigrations(`${cluster.baseUrl}/${template}`);
  await seedDatabase(`${cluster.baseUrl}/${template}`, () => {});
  const emulator = await startIdentityEmulator();

  project.provide('pgBaseUrl', cluster.baseUrl);
  project.provide('templateDatabase', template);
  project.provide('emulatorHost', emulator.host);

  return async () => {
    await emulator.stop();
    await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`).catch(() => {});
    await admin.end();
    await cluster.stop();
  };
}

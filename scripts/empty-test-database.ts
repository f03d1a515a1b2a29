// An empty database on the test run's PostgreSQL, for the tests of what builds one from nothing:
// the migrations, the seed, and the production entry point.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

/** Creates `<prefix>_<uuid>`, empty: its URL, and `drop` to remove it (connections to it included). */
export async function emptyTestDatabase(prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = inject('pgBaseUrl');
  const name = `${prefix}_${randomUUID().replaceAll('-', '')}`;
  const onServer = async (sql: string) => {
    const admin = new pg.Client({ connectionString: `${base}/postgres` });
    await admin.connect();
    try {
      await admin.query(sql);
    } finally {
      await admin.end();
    }
  };
  await onServer(`CREATE DATABASE ${name}`);
  return { url: `${base}/${name}`, drop: () => onServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

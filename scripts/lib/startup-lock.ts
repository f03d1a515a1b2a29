// Several instances starting at once (compose replicas, a rolling deploy) must not migrate or seed
// the same database at the same time. A PostgreSQL advisory lock makes them take turns: the first
// migrates and seeds, the others then find the schema up to date and the catalog there. The lock
// belongs to a session, so an instance that exits or dies while holding it releases it.
import pg from 'pg';

/** Any fixed 64-bit number of our own: "bookshop" in ASCII. */
export const STARTUP_LOCK_KEY = '7093010445420228464';

export async function acquireStartupLock(url: string): Promise<{ release(): Promise<void> }> {
  const client = new pg.Client({ connectionString: url, application_name: 'bookshop-startup' });
  await client.connect();
  await client.query('SELECT pg_advisory_lock($1)', [STARTUP_LOCK_KEY]);
  return { release: () => client.end() };
}

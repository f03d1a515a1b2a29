// SIGTERM to the real server entry point while an Admin's import runs, as a deploy's rolling restart
// sends it: the import is the instance's own background work, not a request, and its one transaction
// is written or not at all. Shutdown lets it finish before the pool closes, so the Admin's file is
// written and its job reads done, instead of failing for a restart the Admin never saw.
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { httpClient, PATIENT_TIMEOUTS, type ServerProcess, signIn, sleep, startServerProcess } from './fault-helpers.ts';
import { createTestDatabase, DEMO } from './helpers.ts';

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let server: ServerProcess;
let sql: pg.Client;
beforeAll(async () => {
  db = await createTestDatabase();
  // The import waits behind the test's lock rather than failing at the lock timeout by itself.
  server = await startServerProcess(db.url, { LOG_LEVEL: 'info', ...PATIENT_TIMEOUTS });
  sql = new pg.Client({ connectionString: db.url });
  await sql.connect();
});
afterAll(() => sql?.end());

it("SIGTERM while an import waits for a copy's lock: the import commits, its job reads done, the server exits 0", {
  timeout: 90_000,
}, async () => {
  const admin = httpClient(server.url);
  await signIn(admin, DEMO.admin.account, DEMO.admin.password);
  const { rows } = await sql.query<{ id: number; isbn13: string; price: string; quantity: number }>(
    `SELECT c.id, b.isbn13, c.price::text, c.quantity FROM books b JOIN book_copies c ON c.book_id = b.id
     WHERE b.isbn13 IS NOT NULL AND c.id = (SELECT min(id) FROM book_copies WHERE book_id = b.id) ORDER BY b.id LIMIT 1`,
  );
  const copy = rows[0]!;
  const checked = await fetch(`${server.url}/api/employee/catalog/import`, {
    method: 'POST',
    headers: { 'content-type': 'text/csv', cookie: [...admin.cookies()].map(([name, value]) => `${name}=${value}`).join('; ') },
    body: `ISBN,Price,Stock,Available\n${copy.isbn13},42.50,${copy.quantity + 5},true\n`,
  });
  expect(checked.status, await checked.clone().text()).toBe(200);
  const job = ((await checked.json()) as { data: { id: number } }).data;

  // Another transaction holds the copy, so the import's transaction waits on it (as behind a checkout).
  const holder = new pg.Client({ connectionString: db.url });
  await holder.connect();
  await holder.query('BEGIN');
  await holder.query('SELECT 1 FROM book_copies WHERE id = $1 FOR UPDATE', [copy.id]);
  try {
    const started = await admin.call('POST', `/api/employee/catalog/import/${job.id}/run`, { skipInvalid: false });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    // The import has reached the lock: its transaction waits on the holder's.
    await expect
      .poll(
        async () =>
          (
            await sql.query(
              "SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%FOR UPDATE OF c%' AND datname = current_database()",
            )
          ).rowCount,
        { timeout: 20_000 },
      )
      .toBe(1);

    server.child.kill('SIGTERM');
    // The server is closing (it no longer takes connections) while the import still waits.
    const listening = () =>
      fetch(`${server.url}/api/health/live`).then(
        () => true,
        () => false,
      );
    await expect.poll(listening, { timeout: 10_000 }).toBe(false);
    await sleep(500);
    expect(server.child.exitCode).toBeNull();
  } finally {
    await holder.query('COMMIT');
    await holder.end();
  }

  expect(await server.exited, server.output().slice(-2000)).toBe(0);
  const [written] = (
    await sql.query<{ status: string; price: string; quantity: number }>(
      'SELECT j.status, c.price::text, c.quantity FROM import_jobs j, book_copies c WHERE j.id = $1 AND c.id = $2',
      [job.id, copy.id],
    )
  ).rows;
  expect(written).toEqual({ status: 'done', price: '42.50', quantity: copy.quantity + 5 });
});

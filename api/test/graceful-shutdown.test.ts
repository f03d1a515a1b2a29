// SIGTERM to the real server entry point (api/src/server.ts, the last step of the Docker image's
// command) while checkouts are in flight: it stops accepting connections, finishes those requests,
// closes the database pool and exits 0 within its bound.
import net from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createBuyers, createCopy, httpClient, type ServerProcess, signIn, sleep, startServerProcess } from './fault-helpers.ts';
import { createTestDatabase } from './helpers.ts';

const BUYERS = 6;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let server: ServerProcess;
let admin: pg.Client;
beforeAll(async () => {
  db = await createTestDatabase();
  // A lock timeout longer than the test holds its lock, so the checkouts wait instead of failing.
  server = await startServerProcess(db.url, { LOG_LEVEL: 'info', DATABASE_LOCK_TIMEOUT_MS: '8000' });
  admin = new pg.Client({ connectionString: db.url });
  await admin.connect();
});
afterAll(() => admin?.end());

const refusesConnections = (url: string) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(Number(new URL(url).port), '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });

it('SIGTERM during checkouts: no new connections, every in-flight request answered, the pool closed, exit 0', {
  timeout: 60_000,
}, async () => {
  const copy = await createCopy(db.query, 100);
  const accounts = await createBuyers(db.query, BUYERS);
  const buyers = accounts.map(() => httpClient(server.url));
  const lines: number[] = [];
  for (const [i, buyer] of buyers.entries()) {
    await signIn(buyer, accounts[i]!);
    lines.push((await buyer.call('POST', `/api/client/cart/${copy}`)).body!.data as number);
  }

  // A row lock held from outside keeps the checkouts in flight.
  await admin.query('BEGIN');
  await admin.query('SELECT * FROM book_copies WHERE id = $1 FOR UPDATE', [copy]);
  const checkouts = buyers.map((buyer, i) =>
    buyer.call('POST', '/api/client/orders/', {
      shipmentAddress: '1 Main Street',
      totalPrice: 10.5,
      totalQuantity: 1,
      cartItemsIds: [lines[i]],
    }),
  );
  const catalogRead = httpClient(server.url).call('GET', '/api/public/book-copy/by-type/Fantasy,1,50');
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline) {
    // Not on the locking connection: inside its transaction, pg_stat_activity is one frozen snapshot.
    const [waiting] = await db.query<{ n: string }>(
      "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
    );
    if (Number(waiting!.n) >= BUYERS) break;
    await sleep(20);
  }

  const signalledAt = Date.now();
  server.child.kill('SIGTERM');
  await sleep(300);
  expect(await refusesConnections(server.url)).toBe(true);
  expect(server.child.exitCode, server.output()).toBeNull(); // still finishing the checkouts
  await admin.query('COMMIT'); // the lock goes; the checkouts proceed

  const answers = await Promise.all(checkouts);
  expect(
    answers.map((a) => a.status),
    JSON.stringify(answers.map((a) => a.body)),
  ).toEqual(Array(BUYERS).fill(200));
  expect((await catalogRead).status).toBe(200);
  const code = await server.exited;
  expect(code, server.output()).toBe(0);
  expect(Date.now() - signalledAt).toBeLessThan(15_000);
  expect(server.output()).toMatch(/SIGTERM: closing/);
  // The pool was closed after the requests, not cut by the exit; the orders are there.
  expect(server.output().indexOf('database pool closed')).toBeGreaterThan(server.output().indexOf('SIGTERM: closing'));
  const { rows } = await admin.query<{ quantity: number }>('SELECT quantity FROM book_copies WHERE id = $1', [copy]);
  expect(rows[0]!.quantity).toBe(100 - BUYERS);
});

// SIGTERM to the real server entry point (api/src/server.ts, the last step of the Docker image's
// command) while checkouts are in flight: it stops accepting connections, finishes those requests,
// closes the database pool and exits 0, well within its own bound (the longest request budget and 5 s).
import net from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import {
  createBuyers,
  createCopy,
  httpClient,
  PATIENT_TIMEOUTS,
  type ServerProcess,
  signIn,
  sleep,
  startServerProcess,
} from './fault-helpers.ts';
import { createTestDatabase } from './helpers.ts';

const BUYERS = 6;
/** Once its checkouts can finish, the server is gone within this long after SIGTERM. */
const EXIT_WITHIN_MS = 15_000;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let server: ServerProcess;
let admin: pg.Client;
beforeAll(async () => {
  db = await createTestDatabase();
  // The checkouts wait behind the test's lock (the statement timeout once answered every one before the signal).
  server = await startServerProcess(db.url, { LOG_LEVEL: 'info', ...PATIENT_TIMEOUTS });
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

/**
 * How the server stands, on one line: a failure's first line (all a CI summary shows) says whether
 * it exited, how, and what it last logged.
 */
const serverState = () => {
  const messages = server
    .output()
    .split('\n')
    .filter(Boolean)
    .slice(-6)
    .map((line) => {
      try {
        const entry = JSON.parse(line) as { msg?: string; err?: { message?: string } };
        return [entry.msg, entry.err?.message].filter(Boolean).join(': ');
      } catch {
        return line;
      }
    });
  return `exit code ${server.child.exitCode}, signal ${server.child.signalCode}; last logged: ${messages.join(' | ')}`;
};

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
  // Every checkout in flight before the signal: waiting on the lock, inside the server. A loaded
  // machine may take seconds to get them there; a signal before that would test less.
  await vi.waitFor(
    async () => {
      // Not on the locking connection: inside its transaction, pg_stat_activity is one frozen snapshot.
      const [row] = await db.query<{ n: string }>(
        "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
      );
      expect(Number(row!.n), `checkouts waiting on the lock; ${serverState()}`).toBeGreaterThanOrEqual(BUYERS);
    },
    { timeout: 20_000, interval: 20 },
  );

  const signalledAt = Date.now();
  server.child.kill('SIGTERM');
  // The listener closes once the server's loop takes the signal: soon, but not at a set time on a loaded machine.
  await vi.waitFor(async () => expect(await refusesConnections(server.url), `the listener closed; ${serverState()}`).toBe(true), {
    timeout: 5000,
    interval: 20,
  });
  expect(server.child.exitCode, `still finishing the checkouts; ${serverState()}`).toBeNull();
  await admin.query('COMMIT'); // the lock goes; the checkouts proceed

  const answers = await Promise.all(checkouts);
  expect(
    answers.map((a) => a.status),
    JSON.stringify(answers.map((a) => a.body)),
  ).toEqual(Array(BUYERS).fill(200));
  expect((await catalogRead).status).toBe(200);
  // Its own bound here is 35 s: a shutdown that hangs fails the test with the server's state, not at the test's timeout.
  const code = await Promise.race([server.exited, sleep(EXIT_WITHIN_MS - (Date.now() - signalledAt)).then(() => 'still running')]);
  expect(code, `the exit within ${EXIT_WITHIN_MS} ms of the signal; ${serverState()}`).toBe(0);
  expect(server.output()).toMatch(/SIGTERM: closing/);
  // The pool was closed after the requests, not cut by the exit; the orders are there.
  expect(server.output().indexOf('database pool closed')).toBeGreaterThan(server.output().indexOf('SIGTERM: closing'));
  const { rows } = await admin.query<{ quantity: number }>('SELECT quantity FROM book_copies WHERE id = $1', [copy]);
  expect(rows[0]!.quantity).toBe(100 - BUYERS);
});

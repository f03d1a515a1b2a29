// The API against a misbehaving database: connections ended by the server under load, a row lock held
// from outside, a pool with no connection free, and a database that is not there at all. The server
// runs as a child process where it matters: an unhandled 'error' event would end that process, which
// the test watches.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/lib/database.ts';
import { isDatabaseUnavailable } from '../src/lib/database-errors.ts';
import {
  createBuyers,
  createCopy,
  type HttpAnswer,
  type HttpClient,
  httpClient,
  runLoad,
  type ServerProcess,
  signIn,
  sleep,
  startServerProcess,
} from './fault-helpers.ts';
import { createTestApp, createTestDatabase, DEMO, type TestApp } from './helpers.ts';

/**
 * One buyer's step: add a unit to the cart and check the line out. An add answered 503 may still have
 * committed, so the line can hold more units than the buyer thinks: the checkout then answers 409
 * with the current totals, and the buyer confirms those, as the web app does. Returns every answer.
 */
async function buyOnce(client: HttpClient, copy: number): Promise<HttpAnswer[]> {
  const added = await client.call('POST', `/api/client/cart/${copy}`);
  if (added.status !== 200) return [added];
  const checkout = (totals: { totalPrice: number; totalQuantity: number }) =>
    client.call('POST', '/api/client/orders/', { shipmentAddress: '1 Main Street', ...totals, cartItemsIds: [added.body!.data] });
  const order = await checkout({ totalPrice: 10.5, totalQuantity: 1 });
  const current = (order.body?.error as { details?: { totalPrice: number; totalQuantity: number } } | undefined)?.details;
  if (order.status !== 409 || !current) return [added, order];
  return [added, order, await checkout(current)];
}

describe('the server ending our connections (pg_terminate_backend) under load', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let server: ServerProcess;
  let admin: pg.Client;
  beforeAll(async () => {
    db = await createTestDatabase();
    server = await startServerProcess(db.url);
    admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
  });
  afterAll(() => admin?.end());

  it('survives 100 rounds: the process stays up, answers 503 at worst, and serves afterwards', { timeout: 90_000 }, async () => {
    const copy = await createCopy(db.query, 100_000);
    const accounts = await createBuyers(db.query, 8);
    const buyers = accounts.map(() => httpClient(server.url));
    for (const [i, buyer] of buyers.entries()) await signIn(buyer, accounts[i]!);
    const browser = httpClient(server.url);

    const statuses = new Map<number, number>();
    const count = (answers: HttpAnswer[]) => {
      for (const a of answers) statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
    };
    let rounds = 0;
    let terminated = 0;
    const ROUNDS = 100;
    const load = runLoad(
      buyers.length + 2,
      () => rounds >= ROUNDS || server.child.exitCode !== null,
      async (worker) => {
        const buyer = buyers[worker];
        if (buyer) count(await buyOnce(buyer, copy));
        else count([await browser.call('GET', '/api/public/book-copy/by-type/Fantasy,1,20')]);
      },
    );
    while (rounds < ROUNDS && server.child.exitCode === null) {
      // Lets the pool reconnect and the load reach the new connections before the next round.
      await sleep(30 + Math.floor(Math.random() * 60));
      const { rows } = await admin.query<{ ended: boolean }>(
        "SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'bookshop-api'",
      );
      terminated += rows.filter((r) => r.ended).length;
      rounds++;
    }
    await load;

    expect(server.child.exitCode, server.output()).toBeNull();
    expect(server.output()).not.toMatch(/Unhandled 'error' event|uncaught/i);
    expect(terminated).toBeGreaterThanOrEqual(ROUNDS); // the rounds did end live connections
    expect(statuses.get(500) ?? 0).toBe(0);
    // 409 only as "your cart has changed" after an add whose 503 hid its commit (see buyOnce).
    expect(
      [...statuses.keys()].every((s) => s === 200 || s === 409 || s === 503),
      JSON.stringify([...statuses]),
    ).toBe(true);
    expect(statuses.get(200)).toBeGreaterThan(0);

    // Afterwards: ready, and a checkout goes through.
    expect((await browser.call('GET', '/api/health/ready')).status).toBe(200);
    // (A 409 may come first: an add answered 503 during the rounds can have committed; see buyOnce.)
    const after = await buyOnce(buyers[0]!, copy);
    expect(after[0]!.status).toBe(200);
    expect(after.at(-1)!.status).toBe(200);
  });
});

describe('a row lock held from outside', () => {
  it('fails checkouts that need the locked copy with fast 503s, while catalog reads and health keep answering', async () => {
    const t = await createTestApp({ env: { DATABASE_LOCK_TIMEOUT_MS: '500' } });
    const copy = await createCopy(t.db.query, 100);
    const accounts = await createBuyers(t.db.query, 6);
    const carts = await Promise.all(
      accounts.map(async (account) => {
        const cookie = await t.login({ account, password: DEMO.client.password });
        const line = (await t.app.inject({ method: 'POST', url: `/api/client/cart/${copy}`, headers: { cookie } })).json().data;
        return { cookie, line };
      }),
    );

    const locker = new pg.Client({ connectionString: t.db.url });
    await locker.connect();
    await locker.query('BEGIN');
    await locker.query('SELECT * FROM book_copies WHERE id = $1 FOR UPDATE', [copy]);
    try {
      const timed = async <T>(work: Promise<T>) => {
        const started = Date.now();
        const result = await work;
        return { result, ms: Date.now() - started };
      };
      const checkouts = carts.map(({ cookie, line }) =>
        timed(t.checkout(cookie, { totalPrice: 10.5, totalQuantity: 1, cartItemsIds: [line] })),
      );
      // While they wait on the lock, the rest of the shop answers at once.
      await sleep(100);
      const reads = await Promise.all([
        timed(t.app.inject('/api/health')),
        timed(t.app.inject('/api/health/ready')),
        timed(t.app.inject('/api/public/book-copy/by-type/Fantasy,1,20')),
        timed(t.app.inject(`/api/public/book-copy/by-id/${copy}`)),
      ]);
      for (const { result, ms } of reads) {
        expect(result.statusCode, result.body).toBe(200);
        // Answered while the lock is held (it is let go after these reads): the bound only says the
        // shop stayed responsive, with room for a loaded machine.
        expect(ms).toBeLessThan(3000);
      }
      for (const { result, ms } of await Promise.all(checkouts)) {
        expect(result.statusCode, result.body).toBe(503);
        expect(result.json().error).toMatchObject({ code: 'DATABASE_UNAVAILABLE', requestId: expect.any(String) });
        expect(Number(result.headers['retry-after'])).toBeGreaterThan(0);
        expect(ms).toBeLessThan(3000); // the 500 ms lock timeout, not the 30 s of the held lock
      }
    } finally {
      await locker.query('ROLLBACK');
      await locker.end();
    }
    // The lock gone, the same checkout succeeds: the 503 left nothing half-done.
    const { cookie, line } = carts[0]!;
    const retry = await t.checkout(cookie, { totalPrice: 10.5, totalQuantity: 1, cartItemsIds: [line] });
    expect(retry.statusCode, retry.body).toBe(200);
  });
});

describe('a wait for a free connection', () => {
  /** A test app whose pool has one connection, and that connection held (released by the caller). */
  async function heldPool(connectTimeoutMs: number) {
    const t = await createTestApp({ env: { DATABASE_POOL_SIZE: '1', DATABASE_CONNECT_TIMEOUT_MS: String(connectTimeoutMs) } });
    return { t, held: await t.app.databasePool.connect() };
  }
  const transaction = (t: TestApp) => t.app.prisma.$transaction((tx) => tx.$queryRaw<{ one: number }[]>`SELECT 1 AS one`);

  it("lasts DATABASE_CONNECT_TIMEOUT_MS for a Prisma transaction as for a plain statement, not Prisma's own 2 s", async () => {
    const { t, held } = await heldPool(6000);
    // Let go after 3 s: past Prisma's default wait (2 s), within the pool's.
    setTimeout(() => held.release(), 3000);
    const started = Date.now();
    expect(await transaction(t)).toEqual([{ one: 1 }]);
    expect(Date.now() - started).toBeGreaterThan(2_500);
  });

  it('ends at DATABASE_CONNECT_TIMEOUT_MS with an error the API answers 503', async () => {
    const { t, held } = await heldPool(1000);
    try {
      const started = Date.now();
      const error = await transaction(t).then(
        () => null,
        (refused: unknown) => refused,
      );
      expect(isDatabaseUnavailable(error), String(error)).toBe(true);
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
      expect(Date.now() - started).toBeLessThan(1_900);
    } finally {
      held.release();
    }
  });
});

describe('a database that cannot be reached', () => {
  it('answers every call 503 DATABASE_UNAVAILABLE with Retry-After, quickly; liveness stays 200', async () => {
    const nowhere = `postgresql://bookshop:bookshop@127.0.0.1:${await freePort()}/bookshop`;
    const t = await createTestApp({ env: { DATABASE_URL: nowhere } });
    const calls = [
      { method: 'GET', url: '/api/public/book-copy/types/' },
      { method: 'GET', url: '/api/public/book-copy/by-type/Fantasy,1,20' },
      { method: 'GET', url: '/api/public/book-copy/by-id/1' },
      { method: 'POST', url: '/api/public/authentication/login', payload: DEMO.client },
      { method: 'POST', url: '/api/public/contact/', payload: { userName: 'A', account: 'a@example.com', message: 'Hello there, shop.' } },
      { method: 'GET', url: '/api/health' },
      { method: 'GET', url: '/api/health/ready' },
    ] as const;
    for (const call of calls) {
      const started = Date.now();
      const res = await t.app.inject(call);
      expect(res.statusCode, `${call.url}: ${res.body}`).toBe(503);
      expect(res.json()).toMatchObject({ data: null, error: { code: 'DATABASE_UNAVAILABLE', message: expect.any(String) } });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(Date.now() - started).toBeLessThan(5000);
    }
    expect((await t.app.inject('/api/health/live')).statusCode).toBe(200);
  });
});

describe('the request time budget', () => {
  it('answers 503 TIMEOUT at the budget when a call waits longer, and the shop keeps answering', async () => {
    // A lock wait allowed longer than the budget: the budget is what ends the wait for the client.
    // (The wait for a connection must be shorter than the budget: config.ts refuses it otherwise.)
    const t = await createTestApp({
      env: { REQUEST_TIMEOUT_MS: '1000', DATABASE_LOCK_TIMEOUT_MS: '4000', DATABASE_CONNECT_TIMEOUT_MS: '500' },
    });
    const copy = await createCopy(t.db.query, 10);
    const [account] = await createBuyers(t.db.query, 1);
    const cookie = await t.login({ account: account!, password: DEMO.client.password });
    const line = (await t.app.inject({ method: 'POST', url: `/api/client/cart/${copy}`, headers: { cookie } })).json().data;
    const locker = new pg.Client({ connectionString: t.db.url });
    await locker.connect();
    await locker.query('BEGIN');
    await locker.query('SELECT * FROM book_copies WHERE id = $1 FOR UPDATE', [copy]);
    try {
      const started = Date.now();
      const res = await t.checkout(cookie, { totalPrice: 10.5, totalQuantity: 1, cartItemsIds: [line] });
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json().error).toMatchObject({ code: 'TIMEOUT', requestId: expect.any(String) });
      expect(res.headers['retry-after']).toBeDefined();
      expect(Date.now() - started).toBeLessThan(2500);
      expect((await t.app.inject('/api/health/live')).statusCode).toBe(200);
    } finally {
      await locker.query('ROLLBACK');
      await locker.end();
    }
  });
});

// PostgreSQL stopped and started again under a bounded checkout load, on a cluster of this file's own
// (the shared test cluster must stay up). Buyers behave as the web app does: a 503 is retried after a
// pause, a checkout is retried with its Idempotency-Key. Afterwards every order answered is in the
// database, none twice, stock is conserved, and the first success came soon after the restart.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { startRestartableCluster } from '../../scripts/lib/database.ts';
import { applyMigrations } from '../../scripts/lib/schema-engine.ts';
import { seedDatabase } from '../../seed/seed.ts';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { SWEEP_INTERVAL_MS } from '../src/plugins/handler-timeout.ts';
import { sleep } from './fault-helpers.ts';

const REQUEST_BUDGET_MS = 5000;
const BUYERS = 6;

let cluster: Awaited<ReturnType<typeof startRestartableCluster>>;
let url: string;
let app: Awaited<ReturnType<typeof buildApp>>;
let admin: pg.Pool;
beforeAll(async () => {
  cluster = await startRestartableCluster();
  const setup = new pg.Client({ connectionString: `${cluster.baseUrl}/postgres` });
  await setup.connect();
  await setup.query('CREATE DATABASE shop');
  await setup.end();
  url = `${cluster.baseUrl}/shop`;
  await applyMigrations(url);
  await seedDatabase(url, () => {}, { people: false });
  // Buyers get the demo client's password hash from the shared template: no hashing here.
  const template = new pg.Client({ connectionString: `${inject('pgBaseUrl')}/${inject('templateDatabase')}` });
  await template.connect();
  const { rows } = await template.query<{ password_hash: string }>(
    "SELECT password_hash FROM clients WHERE account = 'client@bookshop.test'",
  );
  await template.end();
  admin = new pg.Pool({ connectionString: url, max: 2 });
  // The admin's idle connections are ended by the shutdown too; that is expected here.
  admin.on('error', () => {});
  await admin.query(
    `INSERT INTO clients (first_name, last_name, phone_number, account, password_hash)
     SELECT 'Buyer', 'Test', '0555000000', 'buyer' || n || '@example.com', $1 FROM generate_series(1, $2::int) AS n`,
    [rows[0]!.password_hash, BUYERS],
  );
  app = await buildApp(
    loadConfig({
      NODE_ENV: 'test',
      DATABASE_URL: url,
      FIREBASE_PROJECT_ID: 'demo-bookshop',
      FIREBASE_AUTH_EMULATOR_HOST: inject('emulatorHost'),
      REQUEST_TIMEOUT_MS: String(REQUEST_BUDGET_MS),
    }),
  );
  await app.ready();
}, 120_000);
afterAll(async () => {
  await app?.close();
  await admin?.end();
  await cluster?.remove();
});

it('PostgreSQL stopped and restarted under checkout load: no 500, none over budget, no order lost or doubled, stock kept, back within 5 s', {
  timeout: 90_000,
}, async () => {
  const [{ id: copy }] = (
    await admin.query<{ id: number }>('INSERT INTO book_copies (book_id, quantity, price) VALUES (1, 1000, 10.50) RETURNING id')
  ).rows as [{ id: number }];
  const cookies: string[] = [];
  for (let n = 1; n <= BUYERS; n++) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/public/authentication/login',
      payload: { account: `buyer${n}@example.com`, password: 'Client123!' },
    });
    expect(res.statusCode, res.body).toBe(200);
    cookies.push(res.cookies.map((c) => `${c.name}=${c.value}`).join('; '));
  }

  const answers: { status: number; ms: number; at: number }[] = [];
  const confirmed = new Map<number, number[]>(); // buyer -> order ids answered 200
  const hardStop = Date.now() + 45_000;
  let stop = false;
  const call = async (cookie: string, method: 'GET' | 'POST', path: string, payload?: object, headers: Record<string, string> = {}) => {
    const started = Date.now();
    const res = await app.inject({ method, url: path, headers: { cookie, ...headers }, payload });
    answers.push({ status: res.statusCode, ms: Date.now() - started, at: Date.now() });
    if (res.statusCode === 503) await sleep(100); // as Retry-After asks, shortened for the test
    return res;
  };
  /** Retries a call that answered 503 until it answers otherwise (or the test must end). */
  const untilAnswered = async (attempt: () => ReturnType<typeof call>) => {
    for (;;) {
      const res = await attempt();
      if (res.statusCode !== 503 || Date.now() > hardStop) return res;
    }
  };

  const buyer = async (index: number) => {
    const cookie = cookies[index]!;
    confirmed.set(index, []);
    while (!stop && Date.now() < hardStop) {
      // An add answered 503 may have committed: the cart, read afterwards, tells the real totals.
      const added = await untilAnswered(() => call(cookie, 'POST', `/api/client/cart/${copy}`));
      expect(added.statusCode, added.body).toBe(200);
      const cart = await untilAnswered(() => call(cookie, 'GET', '/api/client/cart'));
      const lines = cart.json().data as { id: number; totalQuantity: number; totalPrice: number }[];
      const body = {
        shipmentAddress: '1 Main Street',
        totalPrice: lines.reduce((sum, l) => sum + l.totalPrice, 0),
        totalQuantity: lines.reduce((sum, l) => sum + l.totalQuantity, 0),
        cartItemsIds: lines.map((l) => l.id),
      };
      const key = randomUUID();
      const order = await untilAnswered(() => call(cookie, 'POST', '/api/client/orders/', body, { 'idempotency-key': key }));
      expect(order.statusCode, order.body).toBe(200);
      confirmed.get(index)!.push(order.json().data.id);
    }
  };

  const load = Promise.all(Array.from({ length: BUYERS }, (_, i) => buyer(i)));
  await sleep(1500);
  const stoppedAt = Date.now();
  await cluster.stopServer();
  await sleep(2500);
  await cluster.startServer();
  const restartedAt = Date.now();
  // Runs on until every buyer has been served again for a while, then stops by itself.
  while (Date.now() < hardStop && answers.filter((a) => a.at > restartedAt && a.status === 200).length < 3 * BUYERS) await sleep(100);
  await sleep(1000);
  stop = true;
  await load;

  const during = answers.filter((a) => a.at > stoppedAt && a.at < restartedAt);
  expect(during.some((a) => a.status === 503)).toBe(true); // the outage was felt, and answered 503
  expect(answers.filter((a) => a.status >= 500 && a.status !== 503)).toEqual([]);
  // The budget is looked at every SWEEP_INTERVAL_MS (plugins/handler-timeout.ts).
  expect(answers.filter((a) => a.ms > REQUEST_BUDGET_MS + SWEEP_INTERVAL_MS)).toEqual([]);
  const firstSuccess = answers.find((a) => a.at > restartedAt && a.status === 200);
  expect(firstSuccess, 'a success after the restart').toBeDefined();
  expect(firstSuccess!.at - restartedAt).toBeLessThan(5000);

  // Every order answered exists; the database holds no other (none doubled by a retry).
  const answered = [...confirmed.values()].flat();
  expect(new Set(answered).size).toBe(answered.length);
  const { rows: stored } = await admin.query<{ id: number }>(
    "SELECT o.id FROM orders o JOIN clients c ON c.id = o.client_id WHERE c.account LIKE 'buyer%@example.com' ORDER BY o.id",
  );
  expect(stored.map((r) => r.id)).toEqual([...answered].sort((a, b) => a - b));
  expect(answered.length).toBeGreaterThan(BUYERS);
  // Stock conserved: what left the shelf is what the orders hold.
  const { rows } = await admin.query<{ quantity: number; sold: string }>(
    'SELECT quantity, (SELECT coalesce(sum(quantity), 0) FROM order_items WHERE book_copy_id = $1) AS sold FROM book_copies WHERE id = $1',
    [copy],
  );
  expect(rows[0]!.quantity + Number(rows[0]!.sold)).toBe(1000);
});

// Test fixtures: a fresh database per test file (cloned from the seeded template) and the real app
// on it, plus sign-in helpers that return the session cookies a browser would hold.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, expect, inject, vi } from 'vitest';
import { DEMO_LOGINS } from '../../seed/seed-data.ts';
import { type BuildOptions, buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { CATALOG_CHANGED_CHANNEL } from '../src/plugins/catalog-cache.ts';

export { DEMO_LOGINS as DEMO };

/**
 * Polls until `check` holds, for at most two seconds: what the app hears from the database (a notice)
 * takes milliseconds, so a test that needed longer would be waiting for a timer instead.
 */
export async function eventually(check: () => Promise<boolean> | boolean) {
  for (let waited = 0; waited < 2_000; waited += 20) {
    if (await check()) return;
    await sleep(20);
  }
  throw new Error('not within 2 s');
}

/**
 * Until some statement in the test's database waits for a row another transaction holds (a row's
 * lock, not an advisory lock a background job may be waiting on): the moment to make a race happen.
 */
export async function untilARowIsAwaited(db: Pick<Awaited<ReturnType<typeof createTestDatabase>>, 'query'>) {
  const waiting =
    "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event IN ('transactionid', 'tuple')";
  await eventually(async () => ((await db.query<{ n: number }>(waiting))[0]?.n ?? 0) > 0);
}

/**
 * Until none of the API's connections runs a statement or holds a transaction open: whatever a request
 * answered already still had under way has ended, one way or the other.
 */
export async function untilTheApiIsIdle(db: Pick<Awaited<ReturnType<typeof createTestDatabase>>, 'query'>) {
  const busy =
    "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'bookshop-api' AND state <> 'idle'";
  await vi.waitFor(async () => expect((await db.query<{ n: number }>(busy))[0]!.n).toBe(0), { timeout: 10_000, interval: 20 });
}

/**
 * Until `statements` statements in the test's database wait for a lock (any kind), for up to 20 s: two
 * requests held by a lock the test holds from outside, each past whatever it checks before its write.
 */
export async function untilStatementsWaitOnLocks(db: Pick<Awaited<ReturnType<typeof createTestDatabase>>, 'query'>, statements: number) {
  await vi.waitFor(
    async () => {
      const [row] = await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
      );
      expect(row!.n).toBeGreaterThanOrEqual(statements);
    },
    { timeout: 20_000, interval: 20 },
  );
}

/**
 * Runs `meanwhile` while ending this account's sessions fails (a trigger raises), as an outage between
 * two statements of a change would: what the change wrote must then be undone with it.
 */
export const whileSessionsCannotEnd = (
  db: Pick<Awaited<ReturnType<typeof createTestDatabase>>, 'query'>,
  account: { audience: 'client' | 'employee'; id: number },
  meanwhile: () => Promise<void>,
) => whileSessionWritesFail(db, account, 'NEW.revoked_at IS NOT NULL', 'the sessions could not be ended', meanwhile);

/** Runs `meanwhile` while renewing this account's sessions' tokens fails (a trigger raises), as whileSessionsCannotEnd. */
export const whileSessionsCannotBeRenewed = (
  db: Pick<Awaited<ReturnType<typeof createTestDatabase>>, 'query'>,
  account: { audience: 'client' | 'employee'; id: number },
  meanwhile: () => Promise<void>,
) => whileSessionWritesFail(db, account, 'NEW.generation <> OLD.generation', 'the session tokens could not be renewed', meanwhile);

async function whileSessionWritesFail(
  db: Pick<Awaited<ReturnType<typeof createTestDatabase>>, 'query'>,
  account: { audience: 'client' | 'employee'; id: number },
  failsWhen: string,
  failure: string,
  meanwhile: () => Promise<void>,
) {
  await db.query(`
    CREATE FUNCTION refuse_session_write() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF ${failsWhen} AND NEW.audience = '${account.audience}' AND NEW.subject_id = ${Number(account.id)} THEN
        RAISE EXCEPTION '${failure}';
      END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER refuse_session_write BEFORE UPDATE ON session_families FOR EACH ROW EXECUTE FUNCTION refuse_session_write()`);
  try {
    await meanwhile();
  } finally {
    await db.query('DROP TRIGGER refuse_session_write ON session_families; DROP FUNCTION refuse_session_write()');
  }
}

export async function createTestDatabase(): Promise<{
  url: string;
  query: <T extends pg.QueryResultRow>(sql: string, params?: unknown[]) => Promise<T[]>;
}> {
  const base = inject('pgBaseUrl');
  const name = `test_${randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: `${base}/postgres` });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('templateDatabase')}`);
  await admin.end();
  const pool = new pg.Pool({ connectionString: `${base}/${name}`, max: 3 });
  // pool.end() resolves before its connections have finished closing, so the DROP ... WITH (FORCE)
  // below can terminate one of them: pg-pool re-emits that on the pool, and unheard it failed the run
  // as an uncaught exception (57P01) after every test had passed. A query's own error still rejects.
  pool.on('error', () => {});
  afterAll(async () => {
    await pool.end();
    const cleanup = new pg.Client({ connectionString: `${base}/postgres` });
    await cleanup.connect();
    await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await cleanup.end();
  });
  return { url: `${base}/${name}`, query: async (sql, params) => (await pool.query(sql, params)).rows };
}

/**
 * The statements an app sends while a test records them: give `onQuery` to createTestApp, and run the
 * work to watch in `during`, which answers the statements it sent (also passed to `work` as they come).
 */
export function statementRecorder() {
  let recording: string[] | null = null;
  return {
    onQuery: (sql: string) => {
      recording?.push(sql);
    },
    async during(work: (sent: string[]) => Promise<void>) {
      const sent: string[] = [];
      recording = sent;
      try {
        await work(sent);
        return sent;
      } finally {
        recording = null;
      }
    },
  };
}

/**
 * The statements a piece of work sends itself: give `onQuery` to createTestApp, and wrap each call
 * in `of`. Counted in the work's own async context, not globally: the app's work in the background (a
 * projection refresh an earlier sale set off, a scheduled job) may send statements meanwhile, and
 * did, failing a count in CI. (statementRecorder records everything, for work that goes on after the
 * call has answered, such as an import's job.)
 */
export function ownStatements() {
  const sending = new AsyncLocalStorage<{ sent: string[]; open: boolean }>();
  return {
    onQuery: (sql: string) => {
      const recording = sending.getStore();
      if (recording?.open) recording.sent.push(sql);
    },
    async of<T>(work: () => PromiseLike<T>): Promise<{ answer: T; sent: string[] }> {
      const recording = { sent: [] as string[], open: true };
      // Awaited inside the run: inject sends its request only when its answer is awaited.
      const answer = await sending.run(recording, async () => await work());
      // Closed once the work has answered: a timer it set (a sale's refresh 15 s on) keeps its context.
      recording.open = false;
      return { answer, sent: recording.sent };
    },
  };
}

export async function createTestApp(options: BuildOptions & { env?: Record<string, string> } = {}) {
  const db = await createTestDatabase();
  process.env.FIREBASE_AUTH_EMULATOR_HOST = inject('emulatorHost');
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: db.url,
    FIREBASE_PROJECT_ID: 'demo-bookshop',
    FIREBASE_AUTH_EMULATOR_HOST: inject('emulatorHost'),
    ...options.env,
  });
  const app = await buildApp(config, options);
  await app.ready();
  afterAll(() => app.close());

  /** Signs in and returns the Cookie header value carrying the session cookies. */
  async function login(who: { account: string; password: string }) {
    const res = await app.inject({ method: 'POST', url: '/api/public/authentication/login', payload: who });
    if (res.statusCode !== 200) throw new Error(`login failed: ${res.body}`);
    return cookieHeader(res);
  }

  /** The demo client's sign-in as a page of `origin` sends it (the CSRF check reads its Origin header). */
  const loginFrom = (origin: string) =>
    app.inject({ method: 'POST', url: '/api/public/authentication/login', headers: { origin }, payload: DEMO_LOGINS.client });

  /** A fresh client of this test's own, sharing the demo password, signed in: its id, account and session cookie. */
  async function newClient({ firstName = 'Test', lastName = 'Client' }: { firstName?: string; lastName?: string } = {}) {
    const account = `c-${randomUUID()}@example.com`;
    const [row] = await db.query<{ id: number }>(
      `INSERT INTO clients (first_name, last_name, phone_number, account, password_hash)
       SELECT $1, $2, '0555000000', $3, password_hash FROM clients WHERE account = $4 RETURNING id`,
      [firstName, lastName, account, DEMO_LOGINS.client.account],
    );
    return { id: row!.id, account, cookie: await login({ account, password: DEMO_LOGINS.client.password }) };
  }
  /**
   * A fresh employee of this test's own, sharing the demo password (not signed in): its id, e-mail
   * and password. `email` names it where the test needs to know it beforehand.
   */
  async function newEmployee({
    role = 'Seller',
    email = `e-${randomUUID()}@bookshop.test`,
    firstName = 'Test',
    lastName = 'Employee',
  }: {
    role?: 'Admin' | 'Seller';
    email?: string;
    firstName?: string;
    lastName?: string;
  } = {}) {
    const [row] = await db.query<{ id: number }>(
      `INSERT INTO employees (first_name, last_name, gender, birth_date, email, phone_number, address, password_hash, role)
       SELECT $1, $2, 'Female', '1990-01-01', $3, '0555000000', '1 Main Street', password_hash, $4::"EmployeeRole"
       FROM employees WHERE email = $5 RETURNING id`,
      [firstName, lastName, email, role, DEMO_LOGINS.admin.account],
    );
    return { id: row!.id, account: email, password: DEMO_LOGINS.admin.password };
  }
  /** Puts `quantity` units of a copy in the cart of the signed-in client whose cookie this is: the cart line's id. */
  async function addToCart(cookie: string, copyId: number, quantity = 1) {
    const added = await app.inject({ method: 'POST', url: `/api/client/cart/${copyId}`, headers: { cookie } });
    expect(added.statusCode, added.body).toBe(200);
    const line = added.json().data as number;
    if (quantity > 1) {
      const set = await app.inject({
        method: 'PUT',
        url: '/api/client/cart/',
        headers: { cookie },
        payload: { cartItemId: line, quantity },
      });
      expect(set.statusCode, set.body).toBe(200);
    }
    return line;
  }
  /** Checks out as the signed-in client whose cookie this is, to '1 Main Street' unless the order says otherwise. */
  function checkout(
    cookie: string,
    order: { cartItemsIds: number[]; totalPrice: number; totalQuantity: number; shipmentAddress?: string },
  ) {
    return app.inject({
      method: 'POST',
      url: '/api/client/orders/',
      headers: { cookie },
      payload: { shipmentAddress: '1 Main Street', ...order },
    });
  }

  /** Changes the password of the signed-in client whose cookie this is. */
  const changeClientPassword = (cookie: string, payload: { oldPassword: string; newPassword: string }) =>
    app.inject({ method: 'PUT', url: '/api/client/manage/password/', headers: { cookie }, payload });

  return { app, db, config, login, loginFrom, newClient, newEmployee, addToCart, checkout, changeClientPassword };
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

/**
 * Sends a catalog notice (plugins/catalog-cache.ts) and waits until the app has heard it. An answer
 * that says nothing of what it reads is forgotten by every notice: one is kept first (a notice still
 * on its way could forget it), then its next load says the notice arrived.
 */
export async function catalogNoticeHeard(t: TestApp, notice: string) {
  const key = `sentinel ${randomUUID()}`;
  let loads = 0;
  const sentinel = () => t.app.catalogCache.read(key, async () => ++loads);
  await sentinel();
  await eventually(async () => loads === (await sentinel()));
  const before = loads;
  await t.db.query('SELECT pg_notify($1, $2)', [CATALOG_CHANGED_CHANNEL, notice]);
  await eventually(async () => (await sentinel()) > before);
}

/** The shop's public address in the tests of the pages the server writes (canonical links, sitemaps). */
/**
 * `n` letters that repeat nothing, so no compression shortens them: past PostgreSQL's largest index
 * entry at a few thousand, as anyone's edit of an Open Library record may hold. The same each call.
 */
export function incompressibleLetters(n: number): string {
  let seed = 7;
  return Array.from({ length: n }, () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return String.fromCharCode(97 + (seed % 26));
  }).join('');
}

export const SHOP_ORIGIN = 'https://shop.example.com';
/** A built storefront's page, as the server's own pages start from it. */
export const PAGE_SHELL =
  '<!doctype html><html><head><meta name="description" content="Bookshop: thousands of books." /><title>Bookshop</title>' +
  '</head><body><div id="root"></div></body></html>';

/** A web build of its own whose one page, `shell`, is both index.html and shell.html: the folder's path. */
export function webDistOf(shell: string): string {
  const dist = mkdtempSync(path.join(os.tmpdir(), 'web-dist-'));
  writeFileSync(path.join(dist, 'index.html'), shell);
  writeFileSync(path.join(dist, 'shell.html'), shell);
  return dist;
}

/** The app serving a web build of `shell` at SHOP_ORIGIN, for the pages the server writes itself. */
export const createPagesTestApp = (shell = PAGE_SHELL) => createTestApp({ env: { WEB_DIST: webDistOf(shell), PUBLIC_URL: SHOP_ORIGIN } });

/** A page's schema.org block (its JSON-LD script), parsed. */
export const jsonLd = (html: string) => JSON.parse(/<script type="application\/ld\+json"[^>]*>(.*?)<\/script>/s.exec(html)![1]!);

/** Turns a response's Set-Cookie headers into a Cookie header (cleared cookies are left out). */
export function cookieHeader(res: { cookies: { name: string; value: string }[] }, previous = ''): string {
  const jar = new Map(
    previous
      .split('; ')
      .filter(Boolean)
      .map((c) => c.split('=') as [string, string]),
  );
  for (const c of res.cookies) {
    if (c.value) jar.set(c.name, c.value);
    else jar.delete(c.name);
  }
  return [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
}

/**
 * Creates an account in the real identity emulator, as the browser SDK would, and (with `verify`)
 * follows the verification link the emulator "sent". Returns a fresh ID token and the refresh token.
 */
export async function createProviderAccount(email: string, password: string, { verify }: { verify: boolean }) {
  const emulator = `http://${inject('emulatorHost')}`;
  const apiKey = 'fake-api-key';
  const post = async (url: string, body: object) =>
    (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();
  const created = (await post(`${emulator}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=${apiKey}`, {
    email,
    password,
    returnSecureToken: true,
  })) as { idToken: string; refreshToken: string };
  if (!verify) return created;
  await post(`${emulator}/identitytoolkit.googleapis.com/v1/accounts:sendOobCode?key=${apiKey}`, {
    requestType: 'VERIFY_EMAIL',
    idToken: created.idToken,
  });
  const { oobCodes } = (await fetch(`${emulator}/emulator/v1/projects/demo-bookshop/oobCodes`).then((r) => r.json())) as {
    oobCodes: { email: string; oobLink: string }[];
  };
  const link = oobCodes.filter((c) => c.email === email).at(-1)?.oobLink;
  if (!link) throw new Error(`the emulator sent no verification link to ${email}`);
  await fetch(link); // follows the verification link, as the user would
  const refreshed = (await fetch(`${emulator}/securetoken.googleapis.com/v1/token?key=${apiKey}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `grant_type=refresh_token&refresh_token=${created.refreshToken}`,
  }).then((r) => r.json())) as { id_token: string; refresh_token: string };
  return { idToken: refreshed.id_token, refreshToken: refreshed.refresh_token };
}

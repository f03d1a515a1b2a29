// Health (liveness, readiness), Prometheus metrics, and the request id in logs and error bodies.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loggerOptions, terminalLogFormat } from '../src/lib/logging.ts';
import { createCopy } from './fault-helpers.ts';
import { createTestApp, DEMO, type TestApp } from './helpers.ts';
import { logCapture } from './log-capture.ts';

const { lines: logLines, stream } = logCapture();
let t: TestApp;
beforeAll(async () => {
  // The app's own logger options (lib/logging.ts), writing here.
  t = await createTestApp({ logger: loggerOptions({ env: 'production', logLevel: 'info' }, stream) });
});

const metricValue = (text: string, name: string, labels: Record<string, string> = {}) => {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  const line = text
    .split('\n')
    .find((l) => (l.startsWith(`${name}{`) || l.startsWith(`${name} `) ? wanted.every((w) => l.includes(w)) : false));
  return line ? Number(line.split(' ').at(-1)) : undefined;
};

describe('health', () => {
  it('liveness answers without the database; readiness checks the database and the migrations', async () => {
    expect((await t.app.inject('/api/health/live')).json()).toEqual({ data: { status: 'ok' } });
    expect((await t.app.inject('/api/health/ready')).json()).toEqual({ data: { status: 'ok', database: 'ok', migrations: 'ok' } });
    expect((await t.app.inject('/api/health')).json()).toEqual({ data: { status: 'ok', database: 'ok' } });
  });

  it('readiness is 503 MIGRATIONS_PENDING while a migration of this build is not applied, naming it in the log, not to the caller', async () => {
    const log = logCapture();
    const fresh = await createTestApp({ logger: loggerOptions({ env: 'production', logLevel: 'info' }, log.stream) });
    const [latest] = await fresh.db.query<{ migration_name: string }>(
      'DELETE FROM _prisma_migrations WHERE migration_name = (SELECT max(migration_name) FROM _prisma_migrations) RETURNING migration_name',
    );
    const res = await fresh.app.inject('/api/health/ready');
    expect(res.statusCode).toBe(503);
    expect(res.json().error).toEqual({
      code: 'MIGRATIONS_PENDING',
      message: 'The database lacks migrations of this build.',
      requestId: expect.any(String),
    });
    expect(res.body).not.toContain(latest!.migration_name);
    expect(res.headers['retry-after']).toBeDefined();
    // The operator's log names it once, however often the probe asks.
    expect((await fresh.app.inject('/api/health/ready')).statusCode).toBe(503);
    const named = log.lines.filter((line) => JSON.stringify(line).includes(latest!.migration_name));
    expect(named).toEqual([expect.objectContaining({ level: 40, pending: [latest!.migration_name] })]);
    expect((await fresh.app.inject('/api/health/live')).statusCode).toBe(200);
  });
});

describe('metrics at /api/metrics', () => {
  it('exposes request latency per route and status, the pool, checkout outcomes and the login counters', async () => {
    const cookie = await t.login(DEMO.client);
    const copy = await createCopy(t.db.query, 5);
    const line = (await t.app.inject({ method: 'POST', url: `/api/client/cart/${copy}`, headers: { cookie } })).json().data;
    const order = { shipmentAddress: '1 Main Street', totalPrice: 10.5, totalQuantity: 1, cartItemsIds: [line] };
    expect((await t.app.inject({ method: 'POST', url: '/api/client/orders/', headers: { cookie }, payload: order })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/client/orders/', headers: { cookie }, payload: order })).statusCode).toBe(404);
    await t.app.inject('/api/public/book-copy/by-id/999999999');
    await t.app.inject({ method: 'HEAD', url: '/api/public/book-copy/by-id/999999999' });
    // Wrong passwords for one account from one address: the fifth locks that pair (the default limits).
    const wrongPassword = { account: 'nobody-metrics@example.test', password: 'not the password' };
    for (let attempt = 0; attempt < 5; attempt++) {
      const refused = await t.app.inject({ method: 'POST', url: '/api/public/authentication/login', payload: wrongPassword });
      expect(refused.statusCode).toBe(401);
    }

    const res = await t.app.inject('/api/metrics');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const text = res.body;
    const byIdRoute = { route: '/api/public/book-copy/by-id/:id', status_code: '404', method: 'GET' };
    expect(metricValue(text, 'http_request_duration_seconds_count', byIdRoute)).toBe(1);
    expect(metricValue(text, 'http_request_duration_seconds_bucket', { ...byIdRoute, le: '+Inf' })).toBe(1);
    // A series per method and status: the HEAD beside the GET, the checkout's 200 beside its replay's 404.
    expect(metricValue(text, 'http_request_duration_seconds_count', { ...byIdRoute, method: 'HEAD' })).toBe(1);
    const checkoutRoute = { route: '/api/client/orders', method: 'POST' };
    expect(metricValue(text, 'http_request_duration_seconds_count', { ...checkoutRoute, status_code: '200' })).toBe(1);
    expect(metricValue(text, 'http_request_duration_seconds_count', { ...checkoutRoute, status_code: '404' })).toBe(1);
    expect(metricValue(text, 'shop_checkouts_total', { outcome: 'placed' })).toBe(1);
    expect(metricValue(text, 'shop_checkouts_total', { outcome: 'refused' })).toBe(1);
    expect(metricValue(text, 'db_pool_connections', { state: 'in_use' })).toBeGreaterThanOrEqual(0);
    expect(metricValue(text, 'db_pool_connections', { state: 'idle' })).toBeGreaterThan(0);
    expect(metricValue(text, 'db_pool_waiting_requests')).toBe(0);
    expect(metricValue(text, 'catalog_cache_changes_awaiting_replica')).toBe(0);
    expect(metricValue(text, 'shop_login_failures_total')).toBe(5);
    expect(metricValue(text, 'shop_login_lockouts_total')).toBe(1);
    expect(metricValue(text, 'process_cpu_seconds_total')).toBeGreaterThan(0);
  });

  it('answers only the bearer of METRICS_TOKEN when one is set, and nobody in production without one', async () => {
    const token = 'a-metrics-token-of-thirty-two-chars-or-more';
    const guarded = await buildApp({ ...t.config, metrics: { access: 'token', token } }, { logger: false });
    const off = await buildApp({ ...t.config, metrics: { access: 'off' } }, { logger: false });
    try {
      for (const headers of [
        {},
        { authorization: 'Bearer not-the-token' },
        { authorization: token },
        { authorization: `Bearer ${token}x` },
      ]) {
        const refused = await guarded.inject({ url: '/api/metrics', headers });
        expect(refused.statusCode, JSON.stringify(headers)).toBe(401);
        expect(refused.headers['www-authenticate']).toBe('Bearer');
        expect(refused.json().error.code).toBe('METRICS_TOKEN_REQUIRED');
        expect(refused.body).not.toMatch(/process_cpu|http_request/);
      }
      const read = await guarded.inject({ url: '/api/metrics', headers: { authorization: `Bearer ${token}` } });
      expect(read.statusCode).toBe(200);
      expect(metricValue(read.body, 'process_cpu_seconds_total')).toBeGreaterThan(0);
      // Off: as any address the shop does not have, with or without a token.
      for (const headers of [{}, { authorization: `Bearer ${token}` }]) {
        expect((await off.inject({ url: '/api/metrics', headers })).statusCode).toBe(404);
      }
    } finally {
      await Promise.all([guarded.close(), off.close()]);
    }
  });

  it('is not part of the public API contract', async () => {
    const spec = (await t.app.inject('/api/openapi.json')).json() as { paths: Record<string, unknown> };
    expect(Object.keys(spec.paths)).not.toContain('/api/metrics');
  });
});

describe('the request id', () => {
  it("is in the error body, taken from the proxy's X-Request-Id when there is one, and in every log line of the request", async () => {
    const own = await t.app.inject('/api/public/book-copy/by-id/999999998');
    expect(own.json().error.requestId).toMatch(/^[0-9a-f-]{36}$/);

    // Anything but an id of the proxies' kind is not taken: a value of kilobytes, or one with spaces and quotes.
    for (const forged of ['x'.repeat(4000), 'a" b', '']) {
      const refused = await t.app.inject({ url: '/api/public/book-copy/by-id/999999996', headers: { 'x-request-id': forged } });
      expect(refused.json().error.requestId).toMatch(/^[0-9a-f-]{36}$/);
    }

    const traced = await t.app.inject({ url: '/api/public/book-copy/by-id/999999997', headers: { 'x-request-id': 'trace-abc-123' } });
    expect(traced.json().error).toMatchObject({ code: 'NOT_FOUND', requestId: 'trace-abc-123' });
    const lines = logLines.filter((l) => l.reqId === 'trace-abc-123');
    // One line a request (lib/logging.ts): what was asked, the answer's status and its time.
    expect(lines).toEqual([
      expect.objectContaining({
        msg: 'request completed',
        req: expect.objectContaining({ method: 'GET', url: '/api/public/book-copy/by-id/999999997' }),
        res: { statusCode: 404 },
        responseTime: expect.any(Number),
      }),
    ]);
    // Every line written about a request names it.
    for (const l of logLines.filter((l) => l.req || l.res)) expect(l.reqId).toEqual(expect.any(String));
  });
});

describe('the request log', () => {
  it('carries no credential: no cookie, no identity token, no Set-Cookie', async () => {
    const from = logLines.length;
    // Its sign-in answers with Set-Cookie, inside the lines looked at.
    const { cookie } = await t.newClient();
    const sessionValue = cookie.split(';')[0]!.split('=').slice(1).join('=');
    expect(sessionValue.length).toBeGreaterThan(20);
    const read = await t.app.inject({
      url: '/api/client/orders/1,5',
      headers: { cookie, authorization: 'Bearer identity-token-that-must-not-be-logged' },
    });
    expect(read.statusCode).toBe(200);
    const written = JSON.stringify(logLines.slice(from));
    expect(logLines.slice(from).filter((l) => l.msg === 'request completed')).toHaveLength(2);
    expect(written).not.toContain(sessionValue);
    expect(written).not.toContain('identity-token-that-must-not-be-logged');
    expect(written).not.toMatch(/cookie|authorization/i);
  });

  it("cuts a secret's value from a URL's query: a password reset's code, an unsubscribe token", async () => {
    const from = logLines.length;
    await t.app.inject({ url: '/reset-password?mode=resetPassword&oobCode=reset-code-not-logged&apiKey=key-not-logged&lang=en' });
    await t.app.inject({ method: 'POST', url: '/api/public/unsubscribe?client=1&list=news&token=unsubscribe-token-not-logged' });
    const lines = logLines.slice(from).filter((l) => l.msg === 'request completed');
    expect(lines.map((l) => (l.req as { url: string }).url)).toEqual([
      '/reset-password?mode=resetPassword&oobCode=REDACTED&apiKey=REDACTED&lang=en',
      '/api/public/unsubscribe?client=1&list=news&token=REDACTED',
    ]);
    expect(JSON.stringify(logLines.slice(from))).not.toMatch(/not-logged/);
  });

  it('writes a line for an address the router refuses, which no route answers', async () => {
    const from = logLines.length;
    const refused = await t.app.inject({ url: '/api/public/book-copy/by-id/%E0%A4%A' });
    expect(refused.statusCode).toBe(400);
    expect(logLines.slice(from)).toEqual([
      expect.objectContaining({
        msg: 'request refused: its address cannot be routed',
        req: expect.objectContaining({ url: '/api/public/book-copy/by-id/%E0%A4%A' }),
        res: { statusCode: 400 },
      }),
    ]);
  });
});

describe('a database connection lost', () => {
  it('is logged by what happened, never with the pg client: its connection settings and prepared statements', async () => {
    // An idle connection of the pool, ended by the server: the pool's error listener logs it.
    await t.app.inject({ url: '/api/public/book-copy/types/' });
    const from = logLines.length;
    await t.db.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'bookshop-api' AND state = 'idle'",
    );
    for (let i = 0; i < 100 && !logLines.slice(from).some((l) => l.msg === 'database connection lost; the pool replaces it'); i++)
      await new Promise((r) => setTimeout(r, 20));
    const lost = logLines.slice(from).filter((l) => l.msg === 'database connection lost; the pool replaces it');
    expect(lost.length).toBeGreaterThan(0);
    for (const line of lost) {
      expect(line.err).toMatchObject({ name: 'error', message: 'terminating connection due to administrator command', code: '57P01' });
      expect(Object.keys(line.err as object)).not.toContain('client');
      expect(JSON.stringify(line)).not.toMatch(/SELECT|connectionParameters/);
    }
  });
});

describe('log format', () => {
  it('is readable (pino-pretty) in a development terminal, JSON lines otherwise', async () => {
    expect(terminalLogFormat({ env: 'development' }, { isTTY: true })).toEqual({
      transport: expect.objectContaining({ target: 'pino-pretty' }),
    });
    expect(terminalLogFormat({ env: 'development' }, { isTTY: false })).toEqual({});
    expect(terminalLogFormat({ env: 'production' }, { isTTY: true })).toEqual({});
    expect(import.meta.resolve('pino-pretty')).toBeTruthy();
  });

  it('is JSON lines in a development terminal too where pino-pretty is not installed (the runtime image leaves it out)', async () => {
    vi.resetModules();
    vi.doMock('node:module', async (original) => ({
      ...(await original<typeof import('node:module')>()),
      createRequire: () => ({
        resolve: () => {
          throw Object.assign(new Error("Cannot find module 'pino-pretty'"), { code: 'MODULE_NOT_FOUND' });
        },
      }),
    }));
    try {
      const { terminalLogFormat: withoutPretty } = await import('../src/lib/logging.ts');
      expect(withoutPretty({ env: 'development' }, { isTTY: true })).toEqual({});
    } finally {
      vi.doUnmock('node:module');
      vi.resetModules();
    }
  });
});

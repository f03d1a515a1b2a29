// Two per-request plugins on a bare Fastify, over real HTTP (no database): the time budget
// (plugins/handler-timeout.ts) and the entity tags (plugins/entity-tags.ts).
import { once } from 'node:events';
import { connect } from 'node:net';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { Config } from '../src/config.ts';
import { OneLinePerRequest } from '../src/lib/logging.ts';
import { takingEffect, writesAlone } from '../src/lib/write-budget.ts';
import compression from '../src/plugins/compression.ts';
import configPlugin from '../src/plugins/config.ts';
import entityTags from '../src/plugins/entity-tags.ts';
import errors from '../src/plugins/errors.ts';
import handlerTimeout, { SWEEP_INTERVAL_MS } from '../src/plugins/handler-timeout.ts';
import { logCapture } from './log-capture.ts';

const BUDGET_MS = 1000;
/** How long a write under way may hold its request past the budget (writeGraceMs: the database's two timeouts). */
const GRACE_MS = 1000;
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

let app: FastifyInstance;
type LogLine = { msg: string; reqId?: string; req?: { url: string }; res?: { statusCode: number } };
let logLines: LogLine[] = [];
async function serve(routes: (app: FastifyInstance) => void) {
  const { lines, stream } = logCapture<LogLine>();
  logLines = lines;
  app = Fastify({ logger: { level: 'info', stream }, logController: new OneLinePerRequest() });
  await app.register(configPlugin, {
    config: { requestTimeoutMs: BUDGET_MS, database: { connectTimeoutMs: GRACE_MS / 2, statementTimeoutMs: GRACE_MS / 2 } } as Config,
  });
  await app.register(errors);
  await app.register(handlerTimeout);
  await app.register(compression);
  await app.register(entityTags);
  routes(app);
  await app.listen({ host: '127.0.0.1', port: 0 });
  close = () => app.close();
  const address = app.server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

describe('the time budget of a request', () => {
  it('answers 503 TIMEOUT with Retry-After once a handler runs past the budget, within a sweep of it', async () => {
    const base = await serve((app) => app.get('/slow', async () => sleep(BUDGET_MS * 3, { data: 'late' })));
    const started = Date.now();
    const res = await fetch(`${base}/slow`);
    const took = Date.now() - started;
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBeTruthy();
    expect((await res.json()).error.code).toBe('TIMEOUT');
    expect(took).toBeGreaterThanOrEqual(BUDGET_MS);
    expect(took).toBeLessThan(BUDGET_MS + SWEEP_INTERVAL_MS + 500);
  });

  it("counts a hook's wait too (a session's check at onRequest), as the request's own time", async () => {
    const base = await serve((app) => app.get('/gated', { onRequest: async () => sleep(BUDGET_MS * 3) }, async () => ({ data: 'never' })));
    const res = await fetch(`${base}/gated`);
    expect(res.status).toBe(503);
    expect((await res.json()).error.code).toBe('TIMEOUT');
  });

  it('leaves a route with a budget of its own to that budget, and answers in time those within it', async () => {
    const base = await serve((app) => {
      app.get('/export', { config: { timeBudgetMs: BUDGET_MS * 4 } }, async () => sleep(BUDGET_MS * 2, { data: 'exported' }));
      app.get('/quick', async () => ({ data: 'quick' }));
    });
    const [exported, ...quick] = await Promise.all([fetch(`${base}/export`), ...Array.from({ length: 20 }, () => fetch(`${base}/quick`))]);
    expect(exported!.status).toBe(200);
    expect(await exported!.json()).toEqual({ data: 'exported' });
    for (const res of quick) expect(res.status).toBe(200);
    // Each request left the list at its answer: none is held until the budget's sweep.
    expect(app.requestsInFlight).toBe(0);
  });

  it("holds a request with a body to a budget of its own: 503 TIMEOUT at that budget, its signal live until then (Fastify's handlerTimeout gave it none)", async () => {
    let liveAfterBody: boolean | undefined;
    let abortedBy: unknown;
    const base = await serve((app) =>
      app.post('/check', { config: { timeBudgetMs: BUDGET_MS * 2 } }, async (request) => {
        const signal = request.timeBudgetSignal!;
        liveAfterBody = !signal.aborted;
        signal.addEventListener('abort', () => {
          abortedBy = (signal.reason as { code?: string }).code;
        });
        return sleep(BUDGET_MS * 4, { data: 'late' });
      }),
    );
    const started = Date.now();
    const res = await fetch(`${base}/check`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"rows":1}' });
    const took = Date.now() - started;
    expect(res.status).toBe(503);
    expect((await res.json()).error.code).toBe('TIMEOUT');
    // Past the shared budget, within its own.
    expect(took).toBeGreaterThanOrEqual(BUDGET_MS * 2);
    expect(took).toBeLessThan(BUDGET_MS * 3);
    expect(liveAfterBody).toBe(true);
    expect(abortedBy).toBe('FST_ERR_HANDLER_TIMEOUT');
  });

  it('answers the late request after earlier ones finished or left, and keeps serving', async () => {
    const base = await serve((app) => {
      app.get('/slow', async () => sleep(BUDGET_MS * 3, { data: 'late' }));
      app.get('/quick', async () => ({ data: 'quick' }));
    });
    // A client that leaves before its answer: its request leaves the budget's list at the next sweep.
    const gone = new AbortController();
    const left = fetch(`${base}/slow`, { signal: gone.signal }).catch(() => 'left');
    await sleep(50);
    gone.abort();
    expect(await left).toBe('left');
    const late = fetch(`${base}/slow`);
    for (let i = 0; i < 10; i++) expect((await fetch(`${base}/quick`)).status).toBe(200);
    expect((await late).status).toBe(503);
    expect((await fetch(`${base}/quick`)).status).toBe(200);
    // The request whose client left was dropped at a sweep.
    expect(app.requestsInFlight).toBe(0);
  });
});

describe('a write and the time budget (lib/write-budget.ts)', () => {
  // A statement that takes effect as it ends (a COMMIT, a lone write), standing in for the database's.
  const statement = (ms: number, effects: string[], effect: string) => takingEffect(() => sleep(ms).then(() => effects.push(effect)));
  const post = (base: string, path: string) => fetch(`${base}${path}`, { method: 'POST' });

  it('holds the 503 while a COMMIT sent within the budget ends after it, and answers as the handler does', async () => {
    const effects: string[] = [];
    const base = await serve((app) =>
      app.post('/commit', async () => {
        await sleep(BUDGET_MS / 2);
        await statement(BUDGET_MS, effects, 'committed');
        return { data: 'saved' };
      }),
    );
    const started = Date.now();
    const res = await post(base, '/commit');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: 'saved' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(BUDGET_MS * 1.5);
    expect(effects).toEqual(['committed']);
  });

  it('never answers 503 once a write took effect: what the handler does after is answered late', async () => {
    const effects: string[] = [];
    const base = await serve((app) =>
      app.post('/written', async () => {
        await statement(0, effects, 'committed');
        await sleep(BUDGET_MS + 3 * SWEEP_INTERVAL_MS);
        return { data: 'saved' };
      }),
    );
    expect((await post(base, '/written')).status).toBe(200);
  });

  it('refuses a write asked for past the budget: the answer is the 503, and the statement never runs', async () => {
    const effects: string[] = [];
    let refusal: unknown;
    const base = await serve((app) => {
      // Past the budget before a sweep has come by: the check itself answers the 503.
      app.post('/between-sweeps', async () => {
        const started = Date.now();
        while (Date.now() - started < BUDGET_MS + 10); // holds the event loop: no sweep runs
        await statement(0, effects, 'between sweeps').catch((error) => {
          refusal = error;
          throw error;
        });
      });
      // Answered 503 by a sweep while it waited: what it asks for after writes nothing.
      app.post('/after-the-sweep', async () => {
        await sleep(BUDGET_MS + 3 * SWEEP_INTERVAL_MS);
        await statement(0, effects, 'after the sweep');
      });
    });
    for (const path of ['/between-sweeps', '/after-the-sweep']) {
      const res = await post(base, path);
      expect(res.status).toBe(503);
      expect((await res.json()).error.code).toBe('TIMEOUT');
    }
    await sleep(4 * SWEEP_INTERVAL_MS);
    expect(effects).toEqual([]);
    expect((refusal as { code?: string }).code).toBe('FST_ERR_HANDLER_TIMEOUT');
    // Each refusal is a warning of its own, not Fastify's error that a handler failed after its answer.
    const messages = logLines.map((line) => line.msg);
    expect(messages.filter((msg) => msg.startsWith('a request answered 503 for its time went on'))).toHaveLength(2);
    expect(messages).not.toContain('Promise errored, but reply.sent = true was set');
  });

  it('holds the 503 of a route with a budget of its own the same way, at that budget', async () => {
    const effects: string[] = [];
    const base = await serve((app) =>
      app.post('/sign-up', { config: { timeBudgetMs: BUDGET_MS * 2 } }, async () => {
        await sleep(BUDGET_MS * 1.5);
        await statement(BUDGET_MS, effects, 'committed');
        return { data: 'signed up' };
      }),
    );
    const started = Date.now();
    const res = await post(base, '/sign-up');
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(BUDGET_MS * 2.5);
    expect(effects).toEqual(['committed']);
  });

  it('cuts the connection of a write still taking effect past the grace: no 503, whose outcome it cannot know', async () => {
    const effects: string[] = [];
    const base = await serve((app) => {
      app.post('/stuck', async () => statement(BUDGET_MS + GRACE_MS + 2000, effects, 'committed'));
      app.post('/stuck-own', { config: { timeBudgetMs: BUDGET_MS * 2 } }, async () =>
        statement(BUDGET_MS * 2 + GRACE_MS + 2000, effects, 'committed'),
      );
    });
    for (const [path, budget] of [
      ['/stuck', BUDGET_MS],
      ['/stuck-own', BUDGET_MS * 2],
    ] as const) {
      const started = Date.now();
      await expect(post(base, path)).rejects.toThrow();
      expect(Date.now() - started).toBeGreaterThanOrEqual(budget + GRACE_MS);
      expect(Date.now() - started).toBeLessThan(budget + GRACE_MS + 1000);
    }
  });

  it('does not hold a read, nor refuse what a request answered in time still writes after its answer', async () => {
    const effects: string[] = [];
    const base = await serve((app) => {
      app.get('/read', async () => statement(BUDGET_MS * 2, effects, 'read'));
      app.post('/started', async () => {
        void sleep(BUDGET_MS + 3 * SWEEP_INTERVAL_MS).then(() => statement(0, effects, 'after the answer'));
        return { data: 'started' };
      });
    });
    expect((await fetch(`${base}/read`)).status).toBe(503);
    expect((await post(base, '/started')).status).toBe(200);
    await sleep(BUDGET_MS + 6 * SWEEP_INTERVAL_MS);
    expect(effects).toContain('after the answer');
  });
});

describe('which lone statements are writes (lib/write-budget.ts)', () => {
  it('a SELECT, or a WITH that names no writing command, is a read; the rest, and whatever is unsure, a write', () => {
    const reads = ['SELECT 1', '  select "id" FROM "books"', 'WITH t AS (SELECT updated_at FROM books) SELECT * FROM t'];
    const writes = [
      'INSERT INTO carts VALUES (1)',
      'WITH up AS (UPDATE cart_items SET quantity = quantity + 1 RETURNING id) SELECT id FROM up',
      'with gone as (delete from carts returning id) select 1',
      'DELETE FROM carts',
      '/* a comment first */ SELECT 1',
    ];
    expect(reads.filter(writesAlone)).toEqual([]);
    expect(writes.filter((sql) => !writesAlone(sql))).toEqual([]);
  });
});

describe('the request log', () => {
  it('writes one line a request, at its answer, and one for a request whose client left before it', async () => {
    const base = await serve((app) => {
      app.get('/slow', async () => sleep(BUDGET_MS * 3, { data: 'late' }));
      app.get('/quick', async () => ({ data: 'quick' }));
    });
    expect((await fetch(`${base}/quick`)).status).toBe(200);
    const gone = new AbortController();
    const left = fetch(`${base}/slow`, { signal: gone.signal }).catch(() => 'left');
    await sleep(50);
    gone.abort();
    expect(await left).toBe('left');
    // Swept, and its handler has answered into the closed connection since: still one line.
    await sleep(BUDGET_MS * 3 + 500);

    const quick = logLines.filter((line) => line.req?.url === '/quick');
    expect(quick).toEqual([
      expect.objectContaining({
        msg: 'request completed',
        reqId: expect.any(String),
        req: expect.objectContaining({ method: 'GET' }),
        res: { statusCode: 200 },
      }),
    ]);
    const slow = logLines.filter((line) => line.req?.url === '/slow');
    expect(slow).toEqual([
      expect.objectContaining({ msg: 'request aborted: the client left before the answer', reqId: expect.any(String) }),
    ]);
    expect(logLines.map((line) => line.msg)).not.toContain('incoming request');
  });

  it('writes the line of a request whose client left even when its handler answers before the next sweep', async () => {
    let answer = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const base = await serve((app) => app.get('/brief', async () => answered.then(() => ({ data: 'brief' }))));
    const gone = new AbortController();
    const left = fetch(`${base}/brief`, { signal: gone.signal }).catch(() => 'left');
    await sleep(30);
    gone.abort();
    expect(await left).toBe('left');
    // Answered a moment after the client left: most often before a sweep has looked at it, so the
    // sweep finds the answer ended into a closed connection.
    await sleep(5);
    answer();
    await sleep(4 * SWEEP_INTERVAL_MS);
    expect(logLines.filter((line) => line.req?.url === '/brief')).toEqual([
      expect.objectContaining({ msg: 'request aborted: the client left before the answer' }),
    ]);
  });

  it('writes the line of a streamed answer the budget cuts', async () => {
    const base = await serve((app) =>
      app.get('/stream', async (_request, reply) => {
        const stream = new Readable({ read() {} });
        stream.push('first part, then nothing');
        return reply.type('text/plain').send(stream);
      }),
    );
    const res = await fetch(`${base}/stream`);
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
    await sleep(2 * SWEEP_INTERVAL_MS);
    expect(logLines.filter((line) => line.req?.url === '/stream')).toEqual([
      expect.objectContaining({ msg: 'request cut: past its time budget' }),
    ]);
  });

  it('writes one line, "completed", for an answer a slow client takes longer than a sweep to read', async () => {
    const body = 'x'.repeat(8 * 1024 * 1024);
    const base = await serve((app) => app.get('/large', async (_request, reply) => reply.type('text/plain').send(body)));
    const socket = connect(Number(new URL(base).port), '127.0.0.1');
    socket.pause();
    socket.write('GET /large HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    // The answer is sent (reply.sent) but waits in the socket's buffers across several sweeps.
    await sleep(4 * SWEEP_INTERVAL_MS);
    let received = 0;
    socket.on('data', (chunk: Buffer) => {
      received += chunk.length;
    });
    socket.resume();
    await once(socket, 'end');
    expect(received).toBeGreaterThan(body.length);
    await sleep(2 * SWEEP_INTERVAL_MS);
    expect(logLines.filter((line) => line.req?.url === '/large')).toEqual([
      expect.objectContaining({ msg: 'request completed', res: { statusCode: 200 } }),
    ]);
  });
});

describe('entity tags', () => {
  const body = { data: 'x'.repeat(2000) };
  let streamed: Readable | undefined;
  const routes = (app: FastifyInstance) => {
    app.get('/read', async () => body);
    app.post('/write', async () => body);
    app.get('/streamed', async (_request, reply) => {
      // As @fastify/static answers a file asked for with Cache-Control: no-cache: its own tag, and the stream.
      reply.header('etag', '"file"').type('text/plain');
      streamed = Readable.from(['a file']);
      return streamed;
    });
    app.put('/versioned', async (_request, reply) => {
      reply.header('etag', '"7"');
      return body;
    });
  };

  it('tags a read and answers 304, with no body, to a client that holds it, weak or strong', async () => {
    const base = await serve(routes);
    const first = await fetch(`${base}/read`);
    const tag = first.headers.get('etag')!;
    expect(tag).toMatch(/^"[A-Za-z0-9+/=]+"$/);
    for (const held of [tag, `W/${tag}`]) {
      const again = await fetch(`${base}/read`, { headers: { 'if-none-match': held } });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
    }
    const head = await fetch(`${base}/read`, { method: 'HEAD' });
    expect(head.headers.get('etag')).toBe(tag);
    expect((await fetch(`${base}/read`, { headers: { 'if-none-match': '"other"' } })).status).toBe(200);
  });

  it("tags the body, not its encoding: compressed or not, one tag, and a held tag's 304 is not compressed", async () => {
    const base = await serve(routes);
    const plain = await fetch(`${base}/read`, { headers: { 'accept-encoding': 'identity' } });
    const compressed = await fetch(`${base}/read`, { headers: { 'accept-encoding': 'br' } });
    expect(compressed.headers.get('content-encoding')).toBe('br');
    expect(compressed.headers.get('etag')).toBe(plain.headers.get('etag'));
    const held = await fetch(`${base}/read`, { headers: { 'accept-encoding': 'br', 'if-none-match': plain.headers.get('etag')! } });
    expect(held.status).toBe(304);
    expect(held.headers.get('content-encoding')).toBeNull();
  });

  it('never answers a write 304 (it was done), and tags a write only with the tag its route gives', async () => {
    const base = await serve(routes);
    const tag = (await fetch(`${base}/read`)).headers.get('etag')!;
    const written = await fetch(`${base}/write`, { method: 'POST', headers: { 'if-none-match': tag } });
    expect(written.status).toBe(200);
    expect(written.headers.get('etag')).toBeNull();
    expect(await written.json()).toEqual(body);
    const versioned = await fetch(`${base}/versioned`, { method: 'PUT', headers: { 'if-none-match': '"7"' } });
    expect(versioned.status).toBe(200);
    expect(versioned.headers.get('etag')).toBe('"7"');
  });

  it('sends a stream whole even when its own tag is held, and never leaves it open', async () => {
    const base = await serve(routes);
    const res = await fetch(`${base}/streamed`, { headers: { 'if-none-match': '"file"' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('a file');
    expect(streamed!.destroyed).toBe(true);
  });
});

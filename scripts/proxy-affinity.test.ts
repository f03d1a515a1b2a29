// The compose proxy (docker/nginx.conf), run for real in front of two stand-in replicas that answer
// with their own name: a public catalog read always reaches the replica whose catalog cache holds its
// answer, and the rest (sign-ins, carts, checkouts, Recommended) is spread over both, so no one replica
// takes every checkout. Its access log names each call by the id the app's log names it by, and never
// writes a secret a URL or a Referer carries. Needs nginx (CI has it: the image check installs it);
// skipped where there is none.
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../api/test/helpers.ts';
import { startProxy } from './bench/proxy.ts';

const hasNginx = spawnSync('nginx', ['-v']).status === 0;

/** A log's text once it holds `text`: nginx writes a call's line just after sending its answer. */
async function logHolding(file: string, text: string) {
  let log = '';
  await eventually(async () => {
    log = await readFile(file, 'utf8');
    return log.includes(text);
  });
  return log;
}

describe.runIf(hasNginx)('the proxy in front of two replicas', () => {
  const replicas: http.Server[] = [];
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  let logDir: string;
  /** The X-Request-Id each call reached a replica with, by its path and query. */
  const requestIds = new Map<string, string>();
  /** The X-Forwarded-Host each call reached a replica with, by its path and query. */
  const forwardedHosts = new Map<string, string | undefined>();

  beforeAll(async () => {
    logDir = await mkdtemp(path.join(os.tmpdir(), 'bookshop-proxy-log-'));
    for (const name of ['a', 'b']) {
      const replica = http.createServer((request, response) => {
        // A replica that fails mid-call (restarting, say): nginx logs an error naming the request.
        if (request.url!.includes('drop')) return request.socket.destroy();
        requestIds.set(request.url!, String(request.headers['x-request-id']));
        forwardedHosts.set(request.url!, request.headers['x-forwarded-host'] as string | undefined);
        response.end(name);
      });
      replica.listen(0, '127.0.0.1');
      await once(replica, 'listening');
      replicas.push(replica);
    }
    proxy = await startProxy(
      replicas.map((replica) => `http://127.0.0.1:${(replica.address() as AddressInfo).port}`),
      { accessLog: path.join(logDir, 'access.log') },
    );
  });
  afterAll(async () => {
    await proxy?.stop();
    for (const replica of replicas) replica.close();
    await rm(logDir, { recursive: true, force: true });
  });

  const replicaOf = async (path: string, method = 'GET') => (await fetch(proxy.url + path, { method })).text();

  it('sends each catalog read to one replica, the same every time, and the catalog over both', async () => {
    const paths = Array.from({ length: 24 }, (_, i) => `/api/public/book-copy/by-id/${i + 1}`).concat([
      '/api/public/book-copy/types/',
      '/api/public/book-copy/by-type/Fantasy,2,15',
    ]);
    const first = new Map<string, string>();
    for (const path of paths) {
      // Asked again and again in a row, as a page's readers do: round robin would alternate.
      const answers = new Set<string>();
      for (let i = 0; i < 4; i++) answers.add(await replicaOf(path));
      expect(answers.size, path).toBe(1);
      first.set(path, [...answers][0]!);
    }
    for (const path of paths) expect(await replicaOf(path), path).toBe(first.get(path));
    expect(new Set(first.values())).toEqual(new Set(['a', 'b']));
  });

  it('spreads the calls every shopper makes to the same URL (checkout, cart, sign-in, Recommended) over both replicas', async () => {
    for (const [path, method] of [
      ['/api/client/orders/', 'POST'],
      ['/api/client/cart/', 'GET'],
      ['/api/public/authentication/login', 'POST'],
      // Personal when signed in, so read each time: by URL, every shopper's would land on one replica.
      ['/api/public/book-copy/recommended/', 'GET'],
    ] as const) {
      const reached = new Set<string>();
      for (let i = 0; i < 30; i++) reached.add(await replicaOf(path, method));
      expect(reached, `${method} ${path}`).toEqual(new Set(['a', 'b']));
    }
  });

  it('keeps the metrics from the public in every form the app routes to them', async () => {
    for (const path of ['/api/metrics', '/api/metrics/', '/api/metrics?x=1', '/api/metrics/?x=1', '/api/metric%73']) {
      const answer = await fetch(proxy.url + path);
      expect(answer.status, path).toBe(404);
    }
    // Beside it, the app is reached.
    expect(await replicaOf('/api/health')).toMatch(/^[ab]$/);
  });

  it("replaces a client's X-Forwarded-Host, which the app would trust, with the host the client asked for", async () => {
    const answer = await fetch(`${proxy.url}/api/health?host`, { headers: { 'x-forwarded-host': 'evil.example' } });
    expect(answer.status).toBe(200);
    expect(forwardedHosts.get('/api/health?host')).toBe(new URL(proxy.url).host);
  });

  it('logs each call with the request id the app receives, and no secret from its URL or its Referer', async () => {
    const resetPage = '/reset-password?mode=resetPassword&oobCode=RESET-SECRET&apiKey=KEY-SECRET';
    const calls = [
      { path: resetPage },
      // The page's own calls carry its whole URL as their Referer (same origin).
      { path: '/api/public/book-copy/types/', referer: `http://shop.example${resetPage}` },
      { path: '/unsubscribe?client=7&list=order-status&token=UNSUBSCRIBE-SECRET' },
      // A name percent-encoded could hide a secret's: the query is cut whole, as the app's log judges it.
      { path: '/api/public/unsubscribe?t%6Fken=ENCODED-SECRET' },
      { path: '/search?q=dune&sort=newest' },
    ];
    for (const { path: url, referer } of calls) {
      const answer = await fetch(proxy.url + url, { headers: referer ? { referer } : {} });
      expect(answer.status, url).toBe(200);
    }
    // nginx writes a line as the call ends, unbuffered, but after sending the answer: read until the last is there.
    const log = await logHolding(path.join(logDir, 'access.log'), ` ${requestIds.get(calls.at(-1)!.path)}\n`);
    expect(log).not.toMatch(/SECRET/);
    const lineOf = (url: string) => {
      const id = requestIds.get(url);
      expect(id, url).toMatch(/^[0-9a-f]{32}$/);
      const line = log.split('\n').find((l) => l.endsWith(` ${id}`));
      expect(line, `the line of ${url}`).toBeDefined();
      return line!;
    };
    expect(lineOf(resetPage)).toContain('"GET /reset-password?REDACTED HTTP/1.1" 200');
    expect(lineOf('/api/public/book-copy/types/')).toContain('"GET /api/public/book-copy/types/ HTTP/1.1" 200');
    expect(lineOf('/unsubscribe?client=7&list=order-status&token=UNSUBSCRIBE-SECRET')).toContain('"GET /unsubscribe?REDACTED ');
    expect(lineOf('/api/public/unsubscribe?t%6Fken=ENCODED-SECRET')).toContain('"GET /api/public/unsubscribe?REDACTED ');
    // A query with nothing that could be a secret is kept whole: it says what was asked.
    expect(lineOf('/search?q=dune&sort=newest')).toContain('"GET /search?q=dune&sort=newest HTTP/1.1" 200');
  });

  it("keeps a secret query out of the error log, which writes a failed call's request line, and logs other failures", async () => {
    // Last in this file: the failures mark both replicas down for nginx's fail_timeout (10 s), after which
    // a call fails as "no live upstreams", also an error naming its request.
    for (const url of [
      '/api/public/book-copy/types/?drop=FAILURE-LOGGED',
      '/reset-password?mode=resetPassword&oobCode=DROPPED-SECRET&drop',
      '/Unsubscribe/?client=7&list=order-status&token=DROPPED-SECRET&drop',
      '/api/public/unsubscribe?token=DROPPED-SECRET&drop',
    ]) {
      expect((await fetch(proxy.url + url)).status, url).toBe(502);
    }
    const errors = await logHolding(proxy.errorLog, 'FAILURE-LOGGED');
    expect(errors).toMatch(/\[error\].*request: "GET \/api\/public\/book-copy\/types\/\?drop=FAILURE-LOGGED/);
    expect(errors).not.toMatch(/SECRET/);
  });
});

// The compose proxy (docker/nginx.conf), run for real in front of two stand-in replicas that answer
// with their own name: a public catalog read always reaches the replica whose catalog cache holds its
// answer, and the rest (sign-ins, carts, checkouts, Recommended) is spread over both, so no one replica
// takes every checkout. Needs nginx (CI has it: the image check installs it); skipped where there is none.
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProxy } from './bench/proxy.ts';

const hasNginx = spawnSync('nginx', ['-v']).status === 0;

describe.runIf(hasNginx)('the proxy in front of two replicas', () => {
  const replicas: http.Server[] = [];
  let proxy: Awaited<ReturnType<typeof startProxy>>;

  beforeAll(async () => {
    for (const name of ['a', 'b']) {
      const replica = http.createServer((_request, response) => response.end(name));
      replica.listen(0, '127.0.0.1');
      await once(replica, 'listening');
      replicas.push(replica);
    }
    proxy = await startProxy(replicas.map((replica) => `http://127.0.0.1:${(replica.address() as AddressInfo).port}`));
  });
  afterAll(async () => {
    await proxy?.stop();
    for (const replica of replicas) replica.close();
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
});

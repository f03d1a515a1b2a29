// Throughput of a call on our server and on the bare baseline, measured with autocannon in
// interleaved rounds (ours, bare, ours, bare...) so that a slower moment of the machine falls on both.
import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import autocannon from 'autocannon';

export interface Server {
  url: string;
  stop(): Promise<void>;
}

export async function startServer(
  kind: 'ours' | 'bare',
  databaseUrl: string,
  poolSize: number,
  env: NodeJS.ProcessEnv = {},
): Promise<Server> {
  const child: ChildProcess = fork(new URL('./server-process.ts', import.meta.url), [kind], {
    env: { ...process.env, ...env, DATABASE_URL: databaseUrl, DATABASE_POOL_SIZE: String(poolSize) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    // BENCH_CPU_PROFILE=<folder>: each server writes a V8 CPU profile there (open it in Chrome's DevTools).
    execArgv: [
      ...process.execArgv,
      ...(process.env.BENCH_CPU_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE}`] : []),
    ],
  });
  const [message] = (await Promise.race([
    once(child, 'message'),
    once(child, 'exit').then(([code]) => {
      throw new Error(`the ${kind} server exited (${code}) before listening`);
    }),
  ])) as [{ port: number }];
  return {
    url: `http://127.0.0.1:${message.port}`,
    async stop() {
      const exited = once(child, 'exit');
      child.disconnect();
      await exited;
    },
  };
}

/** Requests per second over `seconds`, after checking every answer was a 200. */
async function requestsPerSecond(url: string, connections: number, seconds: number): Promise<number> {
  const result = await autocannon({ url, connections, duration: seconds });
  if (result.non2xx || result.errors || result.timeouts) {
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  return result.requests.total / seconds;
}

/**
 * Our throughput and the baseline's, in interleaved rounds; with `uncached`, also ours with the
 * catalog cache off (CATALOG_CACHE_MS=0), in the same rounds, so the cache's share is seen apart.
 */
export async function compareThroughput(
  path: string,
  ours: Server,
  bare: Server,
  { rounds, seconds, connections, uncached }: { rounds: number; seconds: number; connections: number; uncached?: Server },
) {
  let oursTotal = 0;
  let bareTotal = 0;
  let uncachedTotal = 0;
  // Warm-up: JIT, pool, caches.
  for (const server of [ours, bare, ...(uncached ? [uncached] : [])]) await requestsPerSecond(server.url + path, connections, 1);
  for (let round = 0; round < rounds; round++) {
    oursTotal += await requestsPerSecond(ours.url + path, connections, seconds);
    bareTotal += await requestsPerSecond(bare.url + path, connections, seconds);
    if (uncached) uncachedTotal += await requestsPerSecond(uncached.url + path, connections, seconds);
  }
  return {
    ours: oursTotal / rounds,
    bare: bareTotal / rounds,
    ratio: oursTotal / bareTotal,
    ...(uncached ? { uncached: uncachedTotal / rounds, uncachedRatio: uncachedTotal / bareTotal } : {}),
  };
}

// Throughput of a call on our server and on the bare baseline, measured with autocannon in
// interleaved rounds (ours, bare, ours, bare...) so that a slower moment of the machine falls on both.
import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import autocannon from 'autocannon';
import type { LoopDelay } from './stats.ts';

export interface Server {
  url: string;
  /** The server's process, for a CPU quota (cpu-quota.ts). */
  pid: number;
  stop(): Promise<void>;
  /** The server's event-loop delays since the last call (server-process.ts). */
  loopDelay(): Promise<LoopDelay>;
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
    pid: child.pid!,
    loopDelay() {
      // A server that died or hangs fails the step rather than the bench waiting for ever.
      return new Promise<LoopDelay>((resolve, reject) => {
        const settle = (done: () => void) => {
          clearTimeout(timer);
          child.off('message', listen);
          child.off('exit', exited);
          done();
        };
        const listen = (reply: { loopDelay?: LoopDelay }) => {
          if (reply.loopDelay) settle(() => resolve(reply.loopDelay!));
        };
        const exited = () => settle(() => reject(new Error(`the ${kind} server exited`)));
        const timer = setTimeout(() => settle(() => reject(new Error(`the ${kind} server did not tell its loop delay`))), 10_000);
        child.on('message', listen);
        child.once('exit', exited);
        child.send('loop-delay', (error) => {
          if (error) settle(() => reject(error));
        });
      });
    },
    async stop() {
      const exited = once(child, 'exit');
      child.disconnect();
      await exited;
    },
  };
}

/** BENCH_WARMUP_SECONDS: the load each server takes, on each call, before its rounds count. */
const WARM_UP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 4);

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
  // Warm-up: JIT, pool, caches. One second was too short for ours, whose path runs more code: on
  // 26 November, measured by the server's own CPU time, its first 2 s round after it took 142-148 µs a
  // `categories` read, the later rounds 82-122 µs (bare 73-90 µs in all of them). Of three rounds, a
  // cold first one weighs a third. After four seconds the first round is like the rest.
  for (const server of [ours, bare, ...(uncached ? [uncached] : [])])
    await requestsPerSecond(server.url + path, connections, WARM_UP_SECONDS);
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

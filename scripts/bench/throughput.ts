// Throughput of a call on our server and on the bare baseline, measured with autocannon in
// interleaved rounds (ours, bare, ours, bare...) so that a slower moment of the machine falls on both.
import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import autocannon from 'autocannon';
import { type LoopDelay, median } from './stats.ts';

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
    // stdout is ours' request log (server-process.ts): written, as in production, and dropped.
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
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

/**
 * BENCH_WARMUP_SECONDS: the load each server process takes on its first call before its rounds count
 * (JIT, pool, caches); on each later call, BENCH_CALL_WARMUP_SECONDS, for that call's own code.
 */
const WARM_UP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 4);
const CALL_WARM_UP_SECONDS = Number(process.env.BENCH_CALL_WARMUP_SECONDS ?? 1);
const warmedUp = new WeakSet<Server>();

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
 *
 * Each kind may run as several processes of the same build (as many of each kind). A process's own
 * luck (where its code and heap fall, how V8 optimized its first requests) moves its rate more than
 * most changes do: on 27 November four processes of the same build took 92-106 µs of CPU a
 * `categories` read where bare took 75. So the rounds go in blocks, one per process index: its
 * processes of every kind are warmed, then take their share of the rounds, interleaved. A process
 * is measured within seconds of its warm-up (an idle pool closes its connections after 10 s), and
 * the processes of one block share the machine's moment, so each block's ratio is a fair one.
 * Each kind's rate is the median of its rounds: on two cores shared by the load generator, the
 * server and PostgreSQL, one 2 s round of a process can run well above its others (one bare
 * process gave 8,105, 12,895 and 7,817 requests a second on 27 November, late), and a mean would
 * carry that round whole.
 */
export async function compareThroughput(
  path: string,
  ours: Server[],
  bare: Server[],
  { rounds, seconds, connections, uncached }: { rounds: number; seconds: number; connections: number; uncached?: Server[] },
) {
  const kinds = { ours, bare, ...(uncached ? { uncached } : {}) };
  type Kind = keyof typeof kinds;
  const processes = ours.length;
  if (Object.values(kinds).some((servers) => servers.length !== processes) || rounds % processes !== 0 || rounds === 0) {
    throw new Error(`${rounds} rounds cannot be shared evenly by ${processes} processes of each server`);
  }
  const rates = Object.fromEntries(Object.keys(kinds).map((kind) => [kind, [] as number[][]])) as Record<Kind, number[][]>;
  for (let block = 0; block < processes; block++) {
    // Warm-up. One second was too short for a fresh process of ours, whose path runs more code: on
    // 26 November, measured by the server's own CPU time, its first 2 s round after it took 142-148
    // µs a `categories` read, the later rounds 82-122 µs (bare 73-90 µs in all of them). After four
    // seconds the first round is like the rest. A process already warm from another call needs only
    // that call's own code made hot.
    for (const servers of Object.values(kinds)) {
      const server = servers[block]!;
      await requestsPerSecond(server.url + path, connections, warmedUp.has(server) ? CALL_WARM_UP_SECONDS : WARM_UP_SECONDS);
      warmedUp.add(server);
    }
    for (const kind of Object.keys(kinds) as Kind[]) rates[kind][block] = [];
    for (let round = 0; round < rounds / processes; round++) {
      for (const [kind, servers] of Object.entries(kinds) as [Kind, Server[]][]) {
        rates[kind][block]!.push(await requestsPerSecond(servers[block]!.url + path, connections, seconds));
      }
    }
  }
  const rate = (kind: Kind) => median(rates[kind].flat());
  const byProcess = (kind: Kind) => rates[kind].map(median);
  return {
    ours: rate('ours'),
    bare: rate('bare'),
    ratio: rate('ours') / rate('bare'),
    ...(uncached ? { uncached: rate('uncached'), uncachedRatio: rate('uncached') / rate('bare') } : {}),
    /** Each block's median rate, by process index: its processes of every kind ran in the same moments. */
    byProcess: { ours: byProcess('ours'), bare: byProcess('bare'), ...(uncached ? { uncached: byProcess('uncached') } : {}) },
  };
}

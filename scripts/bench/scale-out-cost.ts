// What a call costs the machine with one instance and with two, at one fixed rate: the mix behind the
// compose proxy with one instance on the primary, two on the primary, and two whose catalog reads the
// streaming standby (as the scale-out of day.ts runs them), in turn. The scale-out searches each
// configuration's highest rate, which moves ±20 % from run to run; at one rate the cost of a call
// moves far less, and says why two instances on two shared cores do not sustain more than one
// (docs/performance.md): the CPU of each group of processes a call, and, from the scheduler, how often
// the servers' event loops were put on a core (woken, or given it back after being preempted) and how
// long they waited for one.
// `npx tsx scripts/bench/scale-out-cost.ts`; BENCH_COST_RATE (400 a second), BENCH_COST_ROUNDS (2 of
// each configuration, 30 s each after 20 s to warm up; each round starts one configuration later).
import os from 'node:os';
import { DEFAULT_CATALOG_CACHE_MS } from '../../api/src/config.ts';
import { schedulerStats, watchCpu, watchScheduler } from './cpu.ts';
import { MIX_P99_GOAL_MS, openLoop } from './mix.ts';
import { mixDatabaseWithStandby, mixWorld } from './mix-world.ts';
import { checkProxyCanStart, startProxy } from './proxy.ts';
import { percentile } from './stats.ts';
import { type Server, startServer } from './throughput.ts';

const RATE = Number(process.env.BENCH_COST_RATE ?? 400);
const ROUNDS = Number(process.env.BENCH_COST_ROUNDS ?? 2);
const SECONDS = 30;
const WARM_UP_SECONDS = 20;
/** An import in the warm-up, so its path is compiled, and two in each measured step, as in the mix's search. */
const WARM_UP_IMPORT_EVERY_MS = 10_000;
const IMPORT_EVERY_MS = 15_000;
const POOL_SIZE = 10;
checkProxyCanStart();
if (!watchCpu() || !schedulerStats(process.pid)) throw new Error('scale-out-cost reads Linux’s /proc, which this system has not');
const loadAverage = () => os.loadavg().map((l) => l.toFixed(2));
console.log(`load average at the start: ${loadAverage().join(', ')}`);

// The standby streams in every configuration; only the last reads it.
const { cluster, primaryUrl, standbyUrl } = await mixDatabaseWithStandby('bench_scale_out_cost');
const production = { CATALOG_CACHE_MS: String(DEFAULT_CATALOG_CACHE_MS) };
const configurations = [
  { name: 'one instance', instances: 1, env: production },
  { name: 'two on the primary', instances: 2, env: production },
  { name: 'two on the standby', instances: 2, env: { ...production, DATABASE_REPLICA_URL: standbyUrl } },
];

const fixed = (n: number, digits = 2) => n.toFixed(digits);
console.log(
  `the mix behind the proxy at ${RATE}/s: ${SECONDS} s of each configuration after ${WARM_UP_SECONDS} s to warm up, ${ROUNDS} rounds`,
);
for (let round = 0; round < ROUNDS; round++) {
  // Each round starts one configuration later, so that none always runs first (or last) in a round.
  const order = configurations.map((_, i) => configurations[(i + round) % configurations.length]!);
  for (const { name, instances, env } of order) {
    const servers: Server[] = [];
    while (servers.length < instances) servers.push(await startServer('ours', primaryUrl, POOL_SIZE, env));
    const proxy = await startProxy(servers.map((s) => s.url));
    const { world } = await mixWorld(primaryUrl, proxy.url);
    await openLoop(proxy.url, world, { rate: RATE, seconds: WARM_UP_SECONDS, seed: 1, importEveryMs: WARM_UP_IMPORT_EVERY_MS });
    const loopsSince = watchScheduler(servers.map((s) => s.pid));
    if (!loopsSince) throw new Error('a server ended before its round');
    const shares = watchCpu()!;
    const started = performance.now();
    const samples = await openLoop(proxy.url, world, { rate: RATE, seconds: SECONDS, seed: 7 + round, importEveryMs: IMPORT_EVERY_MS });
    const cpu = shares();
    const elapsedMs = performance.now() - started;
    const loops = loopsSince();
    // A call is a recorded answer (the import's status polls aside). A share of all the cores over the
    // step, its calls' last answers included, as ms of one core a call:
    const calls = samples.length;
    const msOfACore = (share = 0) => (share * os.cpus().length * elapsedMs) / calls;
    const shoppers = samples.filter((s) => s.kind !== 'import');
    const p99 = percentile(
      shoppers.map((s) => s.ms),
      0.99,
    );
    const perCall = (n: number, digits = 2) => fixed(n / calls, digits);
    console.log(
      `  ${name}: ${calls} calls, p99 ${fixed(p99, 0)} ms (${shoppers.filter((s) => s.ms > MIX_P99_GOAL_MS).length} over ${MIX_P99_GOAL_MS} ms), ` +
        `the machine ${fixed(cpu.busy * 100, 0)} % busy\n` +
        `    ms of a core a call: servers ${fixed(msOfACore(cpu.groups.server), 3)} (their event loops ${perCall(loops.runMs, 3)}), ` +
        `PostgreSQL ${fixed(msOfACore(cpu.groups.PostgreSQL), 3)}, load generator ${fixed(msOfACore(cpu.groups['load generator']), 3)}, ` +
        `proxy ${fixed(msOfACore(cpu.groups.proxy), 3)}\n` +
        `    the event loops together, a call: put on a core ${perCall(loops.slices)} times (woken ${perCall(loops.voluntarySwitches)}, ` +
        `preempted ${perCall(loops.involuntarySwitches)}), waited for one ${perCall(loops.waitMs, 3)} ms`,
    );
    await proxy.stop();
    for (const server of servers) await server.stop();
  }
}
console.log(`load average at the end: ${loadAverage().join(', ')}`);
await cluster.stop();
process.exit(0);

// What a call costs the machine with one instance and with two, at one fixed rate: the mix behind the
// compose proxy with one instance on the primary, two on the primary, and two whose catalog reads the
// streaming standby (as the scale-out of day.ts runs them), in turn. The scale-out searches each
// configuration's highest rate, which moves ±20 % from run to run; at one rate the cost of a call
// moves far less, and says why two instances on two shared cores do not sustain more than one
// (docs/performance.md): the CPU of each group of processes a call, and, from the scheduler, how often
// each server's event loop was given a core and how long it waited for one.
// `npx tsx scripts/bench/scale-out-cost.ts`; BENCH_COST_RATE (400 a second), BENCH_COST_ROUNDS (2 of
// each configuration, 30 s each after 20 s to warm up).
import os from 'node:os';
import pg from 'pg';
import { DEFAULT_CATALOG_CACHE_MS } from '../../api/src/config.ts';
import { seedDatabase } from '../../seed/seed.ts';
import { applyMigrations } from '../lib/schema-engine.ts';
import { processCpuMs, schedulerStats, watchCpu } from './cpu.ts';
import { MIX_P99_GOAL_MS, openLoop } from './mix.ts';
import { mixWorld, prepareMixDatabase } from './mix-world.ts';
import { checkProxyCanStart, startProxy } from './proxy.ts';
import { startReplicableCluster } from './replica.ts';
import { percentile } from './stats.ts';
import { type Server, startServer } from './throughput.ts';

const RATE = Number(process.env.BENCH_COST_RATE ?? 400);
const ROUNDS = Number(process.env.BENCH_COST_ROUNDS ?? 2);
const SECONDS = 30;
const WARM_UP_SECONDS = 20;
const POOL_SIZE = 10;
checkProxyCanStart();
if (!watchCpu() || !schedulerStats(process.pid)) throw new Error('scale-out-cost reads Linux’s /proc, which this system has not');

const cluster = await startReplicableCluster();
const admin = new pg.Client({ connectionString: `${cluster.baseUrl}/postgres` });
await admin.connect();
await admin.query('CREATE DATABASE bench_scale_out_cost');
await admin.end();
const primaryUrl = `${cluster.baseUrl}/bench_scale_out_cost`;
await applyMigrations(primaryUrl);
await seedDatabase(primaryUrl, () => {});
await prepareMixDatabase(primaryUrl);
const standbyUrl = `${await cluster.startStandby()}/bench_scale_out_cost`;
const production = { CATALOG_CACHE_MS: String(DEFAULT_CATALOG_CACHE_MS) };
const configurations = [
  { name: 'one instance', instances: 1, env: production },
  { name: 'two on the primary', instances: 2, env: production },
  { name: 'two on the standby', instances: 2, env: { ...production, DATABASE_REPLICA_URL: standbyUrl } },
];

/** Every thread's CPU of a server so far, in ms. */
const serverCpuMs = (server: Server) => {
  const ms = processCpuMs(server.pid);
  if (ms === null) throw new Error(`the server ${server.pid} ended`);
  return ms;
};

const fixed = (n: number, digits = 2) => n.toFixed(digits);
console.log(
  `the mix behind the proxy at ${RATE}/s: ${SECONDS} s of each configuration after ${WARM_UP_SECONDS} s to warm up, ${ROUNDS} rounds`,
);
for (let round = 0; round < ROUNDS; round++) {
  for (const { name, instances, env } of configurations) {
    const servers: Server[] = [];
    while (servers.length < instances) servers.push(await startServer('ours', primaryUrl, POOL_SIZE, env));
    const proxy = await startProxy(servers.map((s) => s.url));
    const { world, keepSignedIn } = await mixWorld(primaryUrl, proxy.url);
    await keepSignedIn(proxy.url);
    await openLoop(proxy.url, world, { rate: RATE, seconds: WARM_UP_SECONDS, seed: 1, importEveryMs: 10_000 });
    const cpuBefore = servers.map(serverCpuMs);
    const loopsBefore = servers.map((s) => schedulerStats(s.pid)!);
    const shares = watchCpu()!;
    const started = performance.now();
    const samples = await openLoop(proxy.url, world, { rate: RATE, seconds: SECONDS, seed: 7 + round, importEveryMs: 15_000 });
    const cpu = shares();
    const elapsedMs = performance.now() - started;
    const calls = samples.length;
    // The event loops together: with two, each is given a core for its own share of the calls.
    const loops = servers.reduce(
      (sum, server, i) => {
        const now = schedulerStats(server.pid)!;
        return { slices: sum.slices + now.slices - loopsBefore[i]!.slices, waitMs: sum.waitMs + now.waitMs - loopsBefore[i]!.waitMs };
      },
      { slices: 0, waitMs: 0 },
    );
    const serverCpu = servers.reduce((sum, s, i) => sum + serverCpuMs(s) - cpuBefore[i]!, 0) / calls;
    // A share of all the cores over the step (its calls' last answers included), as ms of one core a call.
    const msOfACore = (share = 0) => (share * os.cpus().length * elapsedMs) / calls;
    const shoppers = samples.filter((s) => s.kind !== 'import');
    const p99 = percentile(
      shoppers.map((s) => s.ms),
      0.99,
    );
    console.log(
      `  ${name}: ${calls} calls, p99 ${fixed(p99, 0)} ms (${shoppers.filter((s) => s.ms > MIX_P99_GOAL_MS).length} over ${MIX_P99_GOAL_MS} ms), ` +
        `the machine ${fixed(cpu.busy * 100, 0)} % busy\n` +
        `    ms of a core a call: servers ${fixed(serverCpu, 3)} (from /proc, every thread), PostgreSQL ${fixed(msOfACore(cpu.groups.PostgreSQL), 3)}, ` +
        `load generator ${fixed(msOfACore(cpu.groups['load generator']), 3)}, proxy ${fixed(msOfACore(cpu.groups.proxy), 3)}\n` +
        `    the event loops together, a call: given a core ${fixed(loops.slices / calls)} times, waited for one ${fixed(loops.waitMs / calls, 3)} ms`,
    );
    await proxy.stop();
    for (const server of servers) await server.stop();
  }
}
await cluster.stop();
process.exit(0);

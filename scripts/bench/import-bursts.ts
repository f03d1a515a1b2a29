// The day's tail around imports, at one fixed rate: two instances reading a streaming standby behind
// the compose proxy, as production scales out, with an import every 15 s beside the mix. Counts the
// shoppers' calls over 100 ms, and how long after an import began they came, and the statements the
// standby ran for them (the caches' asks of its replay position left out), round by round. The mix's
// search (day.ts) gives a rate; this gives a count at a rate, which moved far less from run to run on
// the AMD machine (not on the Xeon one: docs/performance.md), so a change to the cache or to the
// import's path can be compared by running it before and after, several times.
// `npx tsx scripts/bench/import-bursts.ts`; BENCH_BURSTS_RATE (300 a second), BENCH_BURSTS_ROUNDS (3 of 60 s).
import pg from 'pg';
import { DEFAULT_CATALOG_CACHE_MS } from '../../api/src/config.ts';
import { MIX_P99_GOAL_MS, openLoop, type Sample } from './mix.ts';
import { mixDatabaseWithStandby, mixWorld } from './mix-world.ts';
import { startProxy } from './proxy.ts';
import { percentile } from './stats.ts';
import { startServer } from './throughput.ts';

const RATE = Number(process.env.BENCH_BURSTS_RATE ?? 300);
const ROUNDS = Number(process.env.BENCH_BURSTS_ROUNDS ?? 3);
const ROUND_SECONDS = 60;
const IMPORT_EVERY_MS = 15_000;
const POOL_SIZE = 10;

const { cluster, primaryUrl, standbyUrl } = await mixDatabaseWithStandby('bench_bursts');
const production = { CATALOG_CACHE_MS: String(DEFAULT_CATALOG_CACHE_MS), DATABASE_REPLICA_URL: standbyUrl };
const servers = [
  await startServer('ours', primaryUrl, POOL_SIZE, production),
  await startServer('ours', primaryUrl, POOL_SIZE, production),
];
const proxy = await startProxy(servers.map((s) => s.url));
const { world, keepSignedIn } = await mixWorld(primaryUrl, proxy.url);
await keepSignedIn(proxy.url);
const standby = new pg.Client({ connectionString: standbyUrl });
await standby.connect();
const standbyStatements = async () =>
  (
    await standby.query<{ calls: number; ms: number }>(
      `SELECT coalesce(sum(calls), 0)::int AS calls, coalesce(sum(total_exec_time), 0)::float AS ms FROM pg_stat_statements
       WHERE query NOT LIKE '%pg_last_wal_replay_lsn%'`,
    )
  ).rows[0]!;

/** Bands of time since the latest import began (its dry run was due), in ms: where the slow calls fall. */
const SINCE_IMPORT_BANDS = [0, 500, 2_000, 5_000];
/** How many of the slow `shoppers` calls came in each band after an import began, and before the first. */
function slowSinceImport(samples: Sample[], slow: Sample[]) {
  // Every sample of one import is due when that import began (mix.ts, runImport).
  const starts = [...new Set(samples.flatMap((s) => (s.kind === 'import' && s.dueAt !== undefined ? [s.dueAt] : [])))].sort(
    (a, b) => a - b,
  );
  const counts = { before: 0, bands: SINCE_IMPORT_BANDS.map(() => 0) };
  for (const call of slow) {
    const start = starts.findLast((at) => at <= call.dueAt!);
    if (start === undefined) counts.before++;
    else counts.bands[SINCE_IMPORT_BANDS.findLastIndex((from) => call.dueAt! - start >= from)]!++;
  }
  const label = (i: number) =>
    i + 1 < SINCE_IMPORT_BANDS.length
      ? `${SINCE_IMPORT_BANDS[i]! / 1000}-${SINCE_IMPORT_BANDS[i + 1]! / 1000} s`
      : `${SINCE_IMPORT_BANDS[i]! / 1000} s on`;
  return `before the first import ${counts.before}, ${counts.bands.map((n, i) => `${label(i)} ${n}`).join(', ')}`;
}

console.log(`two instances on the standby behind the proxy, ${RATE}/s, an import every ${IMPORT_EVERY_MS / 1000} s`);
// Warmed as the mix's search warms: compiled code, filled caches, one import's path run.
await openLoop(proxy.url, world, { rate: RATE, seconds: 20, seed: 1, importEveryMs: 10_000 });
for (let round = 0; round < ROUNDS; round++) {
  const before = await standbyStatements();
  const samples = await openLoop(proxy.url, world, { rate: RATE, seconds: ROUND_SECONDS, seed: 7 + round, importEveryMs: IMPORT_EVERY_MS });
  const after = await standbyStatements();
  const shoppers = samples.filter((s) => s.kind !== 'import');
  const p99 = percentile(
    shoppers.map((s) => s.ms),
    0.99,
  );
  console.log(
    `  round ${round + 1}: ${shoppers.length} calls, ${shoppers.filter((s) => s.ms > MIX_P99_GOAL_MS).length} over ${MIX_P99_GOAL_MS} ms, ` +
      `p99 ${p99.toFixed(0)} ms, ${shoppers.filter((s) => s.status >= 500).length} answers 5xx; ` +
      `the standby ran ${after.calls - before.calls} statements in ${(after.ms - before.ms).toFixed(0)} ms`,
  );
  const slow = shoppers.filter((s) => s.ms > MIX_P99_GOAL_MS);
  console.log(`    over ${MIX_P99_GOAL_MS} ms by the time since an import began: ${slowSinceImport(samples, slow)}`);
}
await standby.end();
await proxy.stop();
for (const server of servers) await server.stop();
await cluster.stop();
process.exit(0);

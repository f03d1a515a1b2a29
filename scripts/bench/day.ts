// Issue 32: a real day's traffic. `npm run bench -- --mix` (bench.ts hands over to this file):
//   1. the highest open-loop rate of the mix (mix.ts) at which p99 stays within 100 ms with no 5xx,
//      for ours (one instance, as production runs it) and for the bare baseline answering the same
//      calls (bare-catalog.ts, bare-checkout.ts, bare-mix.ts), and their ratio;
//   2. the same behind the compose proxy (proxy.ts) with one instance, and with two instances whose
//      catalog reads a real streaming standby (replica.ts); with BENCH_MIX_INSTANCE_CPUS, both again
//      with each instance held to that share of a core (cpu-quota.ts);
//   3. with `--soak MINUTES`, the mix at 70 % of ours' rate (or BENCH_SOAK_RATE) for that long: p99 per minute, each
//      instance's heap and RSS, the growth of every table, and connections idle in transaction;
//   4. with `--transfer`, the catalog export (time to the first byte, the whole file, memory held) and
//      an import of 10,000 rows (the dry run, the run, memory held).
// `--books N` / `--orders N` grow the data first (grow.ts); `--json FILE` writes the results.
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import Cursor from 'pg-cursor';
import { DEFAULT_CATALOG_CACHE_MS } from '../../api/src/config.ts';
import { isbn13CheckDigit } from '../../api/src/lib/isbn.ts';
import { EXPORT_BATCH, EXPORT_ROWS } from '../../api/src/modules/catalog-admin/catalog-transfer-repository.ts';
import { cpuQuota } from './cpu-quota.ts';
import { growCatalog, growOrders } from './grow.ts';
import { findSustainableRate, MIX_P99_GOAL_MS, MIX_RATIO_GOAL, MIX_SHARES, openLoop, rateVerdict, summarize } from './mix.ts';

type MixFound = Awaited<ReturnType<typeof findSustainableRate>>;

import { mixWorld, prepareMixDatabase, seededCluster } from './mix-world.ts';
import { checkProxyCanStart, startProxy } from './proxy.ts';
import { percentile, writeBenchJson } from './stats.ts';
import { type Server, startServer } from './throughput.ts';

const argument = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? undefined : (process.argv[i + 1] ?? '');
};
const flag = (name: string) => process.argv.includes(`--${name}`);
const BOOKS = Number(argument('books') ?? 0);
const ORDERS = Number(argument('orders') ?? 0);
const SOAK_MINUTES = Number(argument('soak') ?? 0);
const JSON_OUT = flag('json') ? argument('json') || 'bench-results.json' : null;
const POOL_SIZE = Number(process.env.BENCH_POOL_SIZE ?? 10);
/** Seconds of each step of the rate search, its first rate and growth. */
const STEP_SECONDS = Number(process.env.BENCH_MIX_SECONDS ?? 15);
const FROM_RATE = Number(process.env.BENCH_MIX_FROM ?? 50);
const FACTOR = Number(process.env.BENCH_MIX_FACTOR ?? 1.4);
const REFINE = Number(process.env.BENCH_MIX_REFINE ?? 2);
const SEED = 32;
/**
 * BENCH_MIX_INSTANCE_CPUS=0.5 runs the scale-out once more with each instance held to that share of a
 * core, as a container's `cpus` limit holds it (docs/performance.md says what it showed). Off by default.
 */
const INSTANCE_CPUS = Number(process.env.BENCH_MIX_INSTANCE_CPUS ?? 0);
if (flag('mix') && process.env.BENCH_MIX_SCALE_OUT !== '0') checkProxyCanStart();
const CAPPED_WARM_UP_SECONDS = 30;
const IMPORT_EVERY_MS = 60_000;

/**
 * Connections left idle in a transaction: idle so for more than a second. A transaction run statement by
 * statement from the server (the import's) is idle between its statements for a moment, and is not left.
 */
const IDLE_IN_TRANSACTION_SQL = `SELECT count(*)::int AS n FROM pg_stat_activity
  WHERE state LIKE 'idle in transaction%' AND state_change < clock_timestamp() - interval '1 second'`;

const started = performance.now();
const load = () => os.loadavg().map((l) => Number(l.toFixed(2)));
const loadAtStart = load();
console.log(`load average at the start: ${loadAtStart.join(', ')}`);

const database = `bench_day_${process.pid}`;
const { cluster, primaryUrl } = await seededCluster(database);
await prepareData();

const results: Record<string, unknown> = {};
/** Writes what is measured so far: a long run that fails late keeps its first phases. */
const save = async () => {
  if (!JSON_OUT) return;
  await writeBenchJson(
    JSON_OUT,
    {
      books: BOOKS || null,
      orders: ORDERS || null,
      throughput: [],
      checkout: null,
      largestContentfulPaint: null,
      growth: [],
      staffReports: [],
      ...results,
    },
    { loadAverage: { atStart: loadAtStart, atEnd: load() } },
  );
};
const ours = await startServer('ours', primaryUrl, POOL_SIZE, { CATALOG_CACHE_MS: String(DEFAULT_CATALOG_CACHE_MS) });
const bare = await startServer('bare', primaryUrl, POOL_SIZE);
const { world, keepSignedIn } = await mixWorld(primaryUrl, ours.url);
/** The statements that took the database's time, from pg_stat_statements (reset before each search). */
const topStatements = async () => {
  const db = new pg.Client({ connectionString: primaryUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ query: string; calls: number; totalMs: number; meanMs: number; rows: number }>(
      `SELECT left(regexp_replace(query, '\\s+', ' ', 'g'), 160) AS query, calls::int, round(total_exec_time::numeric, 1)::float AS "totalMs",
              round(mean_exec_time::numeric, 3)::float AS "meanMs", rows::int
       FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
       ORDER BY total_exec_time DESC LIMIT 12`,
    );
    await db.query('SELECT pg_stat_statements_reset()');
    return rows;
  } finally {
    await db.end();
  }
};
const search = async (label: string, base: string, servers: Server[], withImport = true, warmUpSeconds?: number) => {
  // The bare baseline has no sign-in route: it checks the sessions ours signs in (one database).
  await keepSignedIn(base === bare.url ? ours.url : base);
  await topStatements();
  const found = await findSustainableRate(label, base, world, {
    from: FROM_RATE,
    factor: FACTOR,
    seconds: STEP_SECONDS,
    refine: REFINE,
    seed: SEED,
    importEveryMs: withImport ? IMPORT_EVERY_MS : undefined,
    servers,
    warmUpSeconds,
  });
  const statements = await topStatements();
  console.log(`\n  the database's time during "${label}", by statement (pg_stat_statements):`);
  for (const s of statements.slice(0, 6))
    console.log(
      `  ${s.totalMs.toFixed(0).padStart(8)} ms ${String(s.calls).padStart(7)} calls ${s.meanMs.toFixed(2).padStart(7)} ms each  ${s.query.slice(0, 90)}`,
    );
  return { ...found, statements };
};

/** Ours' sustainable rate, once searched (the soak runs at 70 % of it). */
let oursRate: number | null = null;
/** The standby, started at the first scale-out and kept for the next. */
let replicaUrl: string | undefined;
// BENCH_MIX_DIRECT=0 leaves out ours and bare without the proxy (a run of the scale-out alone).
if (flag('mix') && process.env.BENCH_MIX_DIRECT !== '0') {
  console.log(
    `\nthe mix (${Object.entries(MIX_SHARES)
      .map(([k, v]) => `${v}% ${k}`)
      .join(
        ', ',
      )}, an import of 1,000 rows a minute), open loop, ${STEP_SECONDS} s a step: the highest rate with p99 <= ${MIX_P99_GOAL_MS} ms and no 5xx\n`,
  );
  const oursFound = await search('ours (one instance)', ours.url, [ours]);
  const bareFound = await search('bare baseline', bare.url, [bare]);
  oursRate = oursFound.rate;
  const { ratio, met } = rateVerdict(oursFound.rate, bareFound.rate);
  printKinds(oursFound.stats, bareFound.stats);
  console.log(
    `\nsustained: ours ${oursFound.rate}/s, bare ${bareFound.rate}/s, ${ratio === null ? 'bare sustained none of the rates tried' : `ratio ${ratio.toFixed(2)}`} ` +
      `${met ? 'PASS' : `MISSED${ratio === null ? '' : ` by ${(MIX_RATIO_GOAL - ratio).toFixed(2)}`} (goal ${MIX_RATIO_GOAL.toFixed(2)})`}`,
  );
  // The same without the import, to tell the import's share from the shoppers' calls' (BENCH_MIX_WITHOUT_IMPORT=0 skips it).
  let withoutImport: { ours: MixFound; bare: MixFound; ratio: number | null } | undefined;
  if (process.env.BENCH_MIX_WITHOUT_IMPORT !== '0') {
    console.log('\nthe same mix without the import');
    const oursAlone = await search('ours, no import', ours.url, [ours], false);
    const bareAlone = await search('bare, no import', bare.url, [bare], false);
    withoutImport = { ours: oursAlone, bare: bareAlone, ratio: rateVerdict(oursAlone.rate, bareAlone.rate).ratio };
    printKinds(oursAlone.stats, bareAlone.stats);
    console.log(
      `\nwithout the import: ours ${oursAlone.rate}/s, bare ${bareAlone.rate}/s, ratio ${withoutImport.ratio?.toFixed(2) ?? 'none'}`,
    );
  }
  results.mix = {
    ours: oursFound,
    bare: bareFound,
    ratio,
    goal: MIX_RATIO_GOAL,
    met,
    withoutImport,
    loadAverage: load(),
  };
  await save();
}

if (SOAK_MINUTES > 0) {
  // BENCH_SOAK_RATE=N soaks at N calls a second without a search first: to watch one rate again, or a heap.
  const rate =
    Number(process.env.BENCH_SOAK_RATE ?? 0) ||
    Math.max(1, Math.round((oursRate ?? (await search('ours (one instance)', ours.url, [ours])).rate) * 0.7));
  results.soak = await soak(rate, SOAK_MINUTES);
  await save();
}
if (flag('transfer')) {
  results.transfer = await transfer();
  await save();
}
await ours.stop();
await bare.stop();

// BENCH_MIX_SCALE_OUT=0 leaves it out (its own run, when the rest must fit in a window), and
// BENCH_MIX_UNCAPPED=0 leaves out its run without quotas.
if (flag('mix') && process.env.BENCH_MIX_SCALE_OUT !== '0') {
  if (process.env.BENCH_MIX_UNCAPPED !== '0') {
    results.scaleOut = await scaleOut();
    await save();
  }
  if (INSTANCE_CPUS > 0) {
    const capped = await scaleOut(INSTANCE_CPUS);
    if (capped) results.scaleOutCapped = capped;
    else console.log('\nno cpu cgroup this process may create (root is needed): the scale-out with quotas is not measured');
  }
}

await save();
console.log(`\nthe bench took ${((performance.now() - started) / 60_000).toFixed(1)} min; load average now ${load().join(', ')}`);
await cluster.stop();
process.exit(0);

/** The grown data, the projections refreshed, statistics gathered, and the load written back. */
async function prepareData() {
  const db = new pg.Client({ connectionString: primaryUrl });
  await db.connect();
  const count = async (table: string) => Number((await db.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n);
  if (BOOKS > 0) {
    console.log(`growing the catalog to ${BOOKS} books`);
    await growCatalog(db, await count('books'), BOOKS);
  }
  if (ORDERS > 0) {
    console.log(`growing the order history to ${ORDERS} orders`);
    await growOrders(db, await count('orders'), ORDERS);
  }
  await db.end();
  await prepareMixDatabase(primaryUrl);
}

type Stats = ReturnType<typeof summarize> | null;
/** Each kind's percentiles in two runs side by side (ours and bare, or one instance and two). */
function printKinds(oursStats: Stats, bareStats: Stats) {
  console.log(
    `\n${'kind'.padEnd(10)} ${'p50/p95/p99 ms'.padStart(22)} ${'p50/p95/p99 ms'.padStart(22)}  ${'calls'.padStart(15)}  answers other than 200`,
  );
  const kinds = new Set([...(oursStats?.kinds ?? []), ...(bareStats?.kinds ?? [])].map((k) => k.kind));
  const triple = (k?: { p50: number; p95: number; p99: number }) =>
    k ? `${k.p50.toFixed(1)}/${k.p95.toFixed(1)}/${k.p99.toFixed(1)}` : '-';
  for (const kind of kinds) {
    const o = oursStats?.kinds.find((k) => k.kind === kind);
    const b = bareStats?.kinds.find((k) => k.kind === kind);
    console.log(
      `${kind.padEnd(10)} ${triple(o).padStart(22)} ${triple(b).padStart(22)}  ${`${o?.calls ?? 0}/${b?.calls ?? 0}`.padStart(15)}  ${JSON.stringify(o?.statuses ?? {})} / ${JSON.stringify(b?.statuses ?? {})}`,
    );
  }
}

/**
 * One instance behind the compose proxy against two whose catalog reads a streaming standby. With
 * `instanceCpus`, each instance runs in its own CPU quota of that share (null where none can be made).
 */
async function scaleOut(instanceCpus?: number) {
  const capped = instanceCpus ? `, each instance held to ${instanceCpus} of a core` : '';
  if (!replicaUrl) {
    console.log('\nscale-out: the primary is stopped, copied into a streaming standby, and both started');
    replicaUrl = `${await cluster.startStandby()}/${database}`;
    console.log(`the standby streams (pg_stat_replication: ${JSON.stringify(await cluster.replication())})`);
  }
  console.log(`\nscale-out${capped}`);
  const quotas: NonNullable<ReturnType<typeof cpuQuota>>[] = [];
  /** An instance started as production runs it, then moved into its own quota when there is one. */
  const instance = async (env: NodeJS.ProcessEnv) => {
    const server = await startServer('ours', primaryUrl, POOL_SIZE, env);
    if (instanceCpus) {
      const quota = cpuQuota(`bookshop-bench-${process.pid}-${quotas.length}`, instanceCpus);
      if (!quota) {
        await server.stop();
        return null;
      }
      quota.add(server.pid);
      quotas.push(quota);
    }
    return server;
  };
  /** How long each quota held its instance back in a search, when the instances had quotas. */
  const throttledDuring = async <T>(measure: () => Promise<T>) => {
    const before = quotas.map((q) => q.throttled());
    const found = await measure();
    if (!instanceCpus) return found;
    const throttled = quotas.map((quota, i) => {
      const now = quota.throttled();
      return { periods: now.periods - before[i]!.periods, ms: now.ms - before[i]!.ms };
    });
    return { ...found, throttled };
  };
  const stopAll = async (servers: Server[]) => {
    for (const server of servers) await server.stop();
    for (const quota of quotas.splice(0)) quota.remove();
  };
  const production = { CATALOG_CACHE_MS: String(DEFAULT_CATALOG_CACHE_MS) };
  const one = await instance(production);
  if (!one) return null;
  let proxy = await startProxy([one.url]);
  // An instance held to part of a core compiles its code and fills its caches that much slower.
  const warmUpSeconds = instanceCpus ? CAPPED_WARM_UP_SECONDS : undefined;
  const oneFound = await throttledDuring(() => search(`proxy + one instance${capped}`, proxy.url, [one], true, warmUpSeconds));
  // Without the import too: its dry run's stall caps both at the same rate.
  const oneAlone = process.env.BENCH_MIX_WITHOUT_IMPORT !== '0' ? await search('proxy + one, no import', proxy.url, [one], false) : null;
  await proxy.stop();
  await stopAll([one]);
  // As production sets it up: the catalog cache on, forgetting a change once the standby has replayed it.
  const replicated = { ...production, DATABASE_REPLICA_URL: replicaUrl };
  const two: Server[] = [];
  while (two.length < 2) {
    const server = await instance(replicated);
    if (!server) {
      await stopAll(two);
      return null;
    }
    two.push(server);
  }
  proxy = await startProxy(two.map((s) => s.url));
  const twoFound = await throttledDuring(() => search(`proxy + two + standby${capped}`, proxy.url, two, true, warmUpSeconds));
  const twoAlone = oneAlone ? await search('proxy + two, no import', proxy.url, two, false) : null;
  const replication = await cluster.replication();
  await proxy.stop();
  await stopAll(two);
  const gain = oneFound.rate ? twoFound.rate / oneFound.rate : 0;
  printKinds(oneFound.stats, twoFound.stats);
  console.log(
    `\nbehind the proxy${capped}: one instance ${oneFound.rate}/s, two instances with the standby ${twoFound.rate}/s (${gain.toFixed(2)}x) ${gain > 1 ? 'PASS' : 'MISSED'}; the standby after: ${JSON.stringify(replication)}`,
  );
  const withoutImport =
    oneAlone && twoAlone ? { one: oneAlone, two: twoAlone, gain: oneAlone.rate ? twoAlone.rate / oneAlone.rate : 0 } : undefined;
  if (withoutImport)
    console.log(`without the import: one instance ${oneAlone!.rate}/s, two ${twoAlone!.rate}/s (${withoutImport.gain.toFixed(2)}x)`);
  return { one: oneFound, two: twoFound, gain, met: gain > 1, withoutImport, replication, instanceCpus, loadAverage: load() };
}

/** The mix at `rate` for `minutes`, watched: p99 a minute, memory, tables, idle transactions. */
async function soak(rate: number, minutes: number) {
  console.log(`\nsoak: the mix at ${rate}/s for ${minutes} min`);
  const db = new pg.Client({ connectionString: primaryUrl });
  await db.connect();
  const tables = async () =>
    Object.fromEntries(
      (
        await db.query<{ name: string; rows: string }>(
          `SELECT relname AS name, (xpath('/row/n/text()', query_to_xml(format('SELECT count(*) AS n FROM %I', relname), false, true, '')))[1]::text AS rows
           FROM pg_stat_user_tables WHERE schemaname = 'public' AND relname NOT IN ('books', 'book_copies') ORDER BY relname`,
        )
      ).rows.map((r) => [r.name, Number(r.rows)]),
    );
  const memory = async () => {
    const text = await (await fetch(`${ours.url}/api/metrics`)).text();
    const metric = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
    return { heapMB: metric('nodejs_heap_size_used_bytes') / 2 ** 20, rssMB: metric('process_resident_memory_bytes') / 2 ** 20 };
  };
  const before = await tables();
  const tallyBefore = { ...world.tally };
  const samples: {
    minute: number;
    heapMB: number;
    /** The least heap sampled in the minute: what the collections leave, the live data a leak would grow. */
    heapFloorMB: number;
    rssMB: number;
    idleInTransaction: number;
    p99: number;
    calls: number;
    failures: number;
  }[] = [];
  let idleInTransactionSeen = 0;
  /** The import's answered calls: its dry run and its start, two each. */
  let importCalls = 0;
  for (let minute = 1; minute <= minutes; minute++) {
    await keepSignedIn(ours.url);
    // Idle-in-transaction connections sampled every 5 s while the minute runs.
    // Memory sampled with them: a minute's median, as one sample may fall just before or after a collection.
    const memorySamples: { heapMB: number; rssMB: number }[] = [];
    const watch = setInterval(() => {
      void db.query<{ n: number }>(IDLE_IN_TRANSACTION_SQL).then(({ rows }) => {
        idleInTransactionSeen = Math.max(idleInTransactionSeen, rows[0]!.n);
      });
      void memory().then((m) => memorySamples.push(m));
    }, 5000);
    const calls = await openLoop(ours.url, world, { rate, seconds: 60, seed: SEED + minute, importEveryMs: IMPORT_EVERY_MS });
    clearInterval(watch);
    importCalls += calls.filter((c) => c.kind === 'import' && c.status === 200).length;
    const { all } = summarize(calls);
    const [{ n: idle }] = (await db.query<{ n: number }>(IDLE_IN_TRANSACTION_SQL)).rows as [{ n: number }];
    const sample = {
      minute,
      heapMB: percentile(
        memorySamples.map((m) => m.heapMB),
        0.5,
      ),
      heapFloorMB: Math.min(...memorySamples.map((m) => m.heapMB)),
      rssMB: percentile(
        memorySamples.map((m) => m.rssMB),
        0.5,
      ),
      idleInTransaction: Math.max(idle, idleInTransactionSeen),
      p99: all.p99,
      calls: all.calls,
      failures: calls.filter((c) => c.status >= 500 || c.status === 0).length,
    };
    idleInTransactionSeen = 0;
    samples.push(sample);
    console.log(
      `  minute ${String(minute).padStart(3)}: p99 ${sample.p99.toFixed(1).padStart(6)} ms, ${sample.calls} calls, ${sample.failures} failures, heap ${sample.heapMB.toFixed(1)} MB (least ${sample.heapFloorMB.toFixed(1)}), RSS ${sample.rssMB.toFixed(1)} MB, idle in transaction ${sample.idleInTransaction}`,
    );
  }
  const after = await tables();
  const { rows: sessionRows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM session_families');
  // The materialized views, and browse_listing, a table kept from changes (decision 15's amendment of 27 November).
  const projections = new Set([
    ...(await db.query<{ name: string }>('SELECT matviewname AS name FROM pg_matviews')).rows.map((r) => r.name),
    'browse_listing',
  ]);
  await db.end();
  // Warm-up: the first fifth of the soak (at least a minute) is not compared.
  const warm = samples.slice(Math.max(1, Math.floor(minutes / 5)));
  const first = warm.slice(0, Math.max(1, Math.floor(warm.length / 3)));
  const last = warm.slice(-Math.max(1, Math.floor(warm.length / 3)));
  type Measure = 'p99' | 'heapMB' | 'heapFloorMB' | 'rssMB';
  const mean = (of: typeof samples, key: Measure) => of.reduce((sum, s) => sum + s[key], 0) / of.length;
  const drift = (key: Measure) => (warm.length ? mean(last, key) / mean(first, key) - 1 : 0);
  const growth = Object.fromEntries(
    Object.keys(after)
      .filter((t) => after[t] !== before[t])
      .map((t) => [t, (after[t] ?? 0) - (before[t] ?? 0)]),
  );
  // What the soak wrote, and so what each table may have grown by: anything else grew on its own.
  const wrote = Object.fromEntries(
    Object.entries(world.tally).map(([k, v]) => [k, v - tallyBefore[k as keyof typeof tallyBefore]]),
  ) as typeof world.tally;
  const expected: Record<string, [number, string]> = {
    orders: [wrote.ordersPlaced, 'orders placed'],
    order_items: [wrote.linesOrdered, 'lines ordered'],
    mail_outbox: [wrote.ordersPlaced, 'an order confirmation each'],
    stock_movements: [wrote.linesOrdered + wrote.importRowsWritten, 'lines ordered and rows imported'],
    security_events: [wrote.importRowsWritten, "the import's audited rows"],
    import_jobs: [Math.ceil(importCalls / 2), 'imports checked'],
    session_families: [wrote.signIns, 'sign-ins'],
    refresh_tokens: [wrote.signIns, 'sign-ins'],
    // Emptied by each catch-up of browse_listing, which sales alone ask for every SALES_REFRESH_SECONDS.
    browse_listing_changes: [wrote.linesOrdered + wrote.importRowsWritten, 'copies sold or imported, until the next catch-up'],
  };
  const explained = Object.entries(growth).map(([table, rows]) => {
    const [allowed, because] = expected[table] ?? [0, ''];
    return {
      table,
      rows,
      allowed,
      because,
      // Carts and the daily sales rows are bounded by the shoppers and the copies they buy, not by the traffic;
      // a projection holds what the catalog has on sale, whatever the traffic.
      explained: table === 'cart_items' || table.startsWith('sales_daily') || projections.has(table) || rows <= allowed,
    };
  });
  const result = {
    rate,
    minutes,
    samples,
    // The heap's goal is judged on each minute's least sample: its median also holds the garbage the old
    // generation gathers until its next collection, which comes every minute or two whatever is kept
    // (107-145 MB medians in the run of 26 November, none of them a trend).
    drift: { p99: drift('p99'), heap: drift('heapFloorMB'), heapMedian: drift('heapMB'), rss: drift('rssMB') },
    goals: { p99: 0.1, heap: 0.05, rss: 0.05 },
    tableGrowth: growth,
    tableGrowthExplained: explained,
    sessionFamilies: sessionRows[0]?.n,
    idleInTransactionMax: Math.max(0, ...samples.map((s) => s.idleInTransaction)),
    loadAverage: load(),
  };
  console.log(
    `\nsoak drift after warm-up (last third against the first): p99 ${(result.drift.p99 * 100).toFixed(1)} % (goal 10), heap ${(result.drift.heap * 100).toFixed(1)} % (goal 5; medians ${(result.drift.heapMedian * 100).toFixed(1)} %), RSS ${(result.drift.rss * 100).toFixed(1)} % (goal 5); idle in transaction at most ${result.idleInTransactionMax}`,
  );
  for (const row of explained)
    console.log(
      `  ${row.table.padEnd(24)} ${row.rows > 0 ? '+' : ''}${row.rows}${row.because ? ` (${row.allowed} ${row.because})` : ''} ${row.explained ? 'explained' : 'NOT EXPLAINED'}`,
    );
  return result;
}

/** The export at the database's pace, and an import of 10,000 rows: times and the memory the server holds. */
async function transfer() {
  console.log('\nthe catalog export and a 10,000-row import, alone');
  const server = await startServer('ours', primaryUrl, POOL_SIZE, { CATALOG_CACHE_MS: String(DEFAULT_CATALOG_CACHE_MS) });
  const rss = async () => {
    const text = await (await fetch(`${server.url}/api/metrics`)).text();
    return Number(/^process_resident_memory_bytes (\S+)$/m.exec(text)?.[1]) / 2 ** 20;
  };
  /** Peak RSS above the RSS before, sampled every 100 ms while `work` runs. */
  const held = async <T>(work: () => Promise<T>) => {
    const base = await rss();
    let peak = base;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peak = Math.max(peak, await rss());
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const result = await work();
    sampling = false;
    await sampler;
    return { result, heldMB: peak - base, baseMB: base };
  };
  const employee = world.employee;
  // The database's pace: the export's statement read bare through a cursor, as many rows at a time, and nothing else done.
  const bareCursor = async () => {
    const db = new pg.Client({ connectionString: primaryUrl });
    await db.connect();
    try {
      const start = performance.now();
      const cursor = db.query(new Cursor(EXPORT_ROWS));
      let rows = 0;
      for (let batch = await cursor.read(EXPORT_BATCH); batch.length; batch = await cursor.read(EXPORT_BATCH)) rows += batch.length;
      return { rows, totalMs: performance.now() - start };
    } finally {
      await db.end();
    }
  };
  const cursorAlone = await bareCursor();
  const exported = await held(async () => {
    const start = performance.now();
    const response = await fetch(`${server.url}/api/employee/catalog/export.csv`, { headers: { cookie: employee } });
    const reader = response.body!.getReader();
    let firstByteMs = 0;
    let bytes = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!firstByteMs) firstByteMs = performance.now() - start;
      bytes += value.length;
    }
    return { status: response.status, firstByteMs, totalMs: performance.now() - start, bytes };
  });
  const db = new pg.Client({ connectionString: primaryUrl });
  await db.connect();
  // The generated books have no ISBN: enough of them get one (979-8, with its check digit) for 10,000 rows.
  const { rows: lacking } = await db.query<{ id: number }>(
    'SELECT id FROM books WHERE isbn13 IS NULL ORDER BY id LIMIT greatest(0, 10000 - (SELECT count(*) FROM books WHERE isbn13 IS NOT NULL))',
  );
  const isbns = lacking.map((b) => {
    const first12 = `9798${String(b.id).padStart(8, '0')}`;
    return first12 + isbn13CheckDigit(first12);
  });
  await db.query('UPDATE books b SET isbn13 = n.isbn FROM unnest($1::int[], $2::text[]) n(id, isbn) WHERE b.id = n.id', [
    lacking.map((b) => b.id),
    isbns,
  ]);
  const { rows } = await db.query<{ isbn13: string; price: string; quantity: number }>(
    `SELECT b.isbn13, c.price::text AS price, c.quantity FROM books b JOIN book_copies c ON c.book_id = b.id
     WHERE b.isbn13 IS NOT NULL ORDER BY b.id LIMIT 10000`,
  );
  await db.end();
  const csv = ['isbn,price,stock,available', ...rows.map((r) => `${r.isbn13},${r.price},${r.quantity + 1},true`)].join('\n');
  const imported = await held(async () => {
    const start = performance.now();
    const checked = await fetch(`${server.url}/api/employee/catalog/import`, {
      method: 'POST',
      headers: { cookie: employee, 'content-type': 'text/csv' },
      body: csv,
    });
    const checkMs = performance.now() - start;
    const job = (await checked.json()) as { data: { id: number } };
    const runStart = performance.now();
    await fetch(`${server.url}/api/employee/catalog/import/${job.data.id}/run`, {
      method: 'POST',
      headers: { cookie: employee, 'content-type': 'application/json' },
      body: JSON.stringify({ skipInvalid: true }),
    });
    let status = 'running';
    while (status === 'running') {
      await new Promise((r) => setTimeout(r, 200));
      status = (
        (await (await fetch(`${server.url}/api/employee/catalog/import/${job.data.id}`, { headers: { cookie: employee } })).json()) as {
          data: { status: string };
        }
      ).data.status;
    }
    return { rows: rows.length, checkStatus: checked.status, checkMs, runMs: performance.now() - runStart, status };
  });
  await server.stop();
  const result = {
    export: { ...exported.result, heldMB: exported.heldMB, bareCursor: cursorAlone },
    import: { ...imported.result, heldMB: imported.heldMB },
    loadAverage: load(),
  };
  console.log(
    `export: ${(result.export.bytes / 2 ** 20).toFixed(1)} MB, first byte ${result.export.firstByteMs.toFixed(0)} ms, whole ${(result.export.totalMs / 1000).toFixed(1)} s, held ${result.export.heldMB.toFixed(1)} MB of RSS; ` +
      `the statement alone through a bare cursor ${(cursorAlone.totalMs / 1000).toFixed(1)} s (${cursorAlone.rows} rows)\n` +
      `import of ${result.import.rows} rows: dry run ${result.import.checkMs.toFixed(0)} ms (${result.import.checkStatus}), run ${(result.import.runMs / 1000).toFixed(1)} s (${result.import.status}), held ${result.import.heldMB.toFixed(1)} MB of RSS`,
  );
  return result;
}

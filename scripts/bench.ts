// `npm run bench`: how fast the main calls are, as ratios against baselines measured in the same run
// (so the numbers mean the same on any machine), on a throwaway, seeded database:
// - each public catalog call's throughput against a bare Fastify + node-postgres server running the
//   same SQL and answering byte-identical bodies (bench/bare-catalog.ts), with statements per request;
// - the signed-in calls' latency against a trivial call of the same app;
// - the search's word index against scanning every book;
// - with `--books N`, p50/p95 on the seed catalog against a generated catalog of N books.
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { buildApp } from '../api/src/app.ts';
import { DEFAULT_CATALOG_CACHE_MS, loadConfig } from '../api/src/config.ts';
import { SITEMAP_BOOKS_PER_FILE } from '../api/src/modules/catalog/catalog-service.ts';
import { seedDatabase } from '../seed/seed.ts';
import { bareCatalog } from './bench/bare-catalog.ts';
import { browseCalls, reportBrowsePlans } from './bench/browse.ts';
import { growCatalog, growOrders } from './bench/grow.ts';
import { homePageLcp } from './bench/largest-contentful-paint.ts';
import { percentile, writeBenchJson } from './bench/stats.ts';
import { compareThroughput, type Server, startServer } from './bench/throughput.ts';
import { CHECKOUT_GOAL_32, processRatios, ratioFigure } from './bench/write-performance-doc.ts';
import { findChromium } from './lib/browser.ts';
import { startTestCluster } from './lib/database.ts';
import { applyMigrations } from './lib/schema-engine.ts';
import { ensureWebBuild, webDist } from './lib/web-build.ts';

const benchStarted = performance.now();
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
const argument = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? undefined : (process.argv[i + 1] ?? '');
};
/** `--books N`: after the seed catalog, grow it to N books and compare (see growth() below). */
const GROW_TO = Number(argument('books') ?? 0);
/** `--orders N`: grow the order history to N orders and compare the staff reports (see staffReportsGrowth() below). */
const ORDERS_TO = Number(argument('orders') ?? 0);
// Issue 32's day of traffic (the mix, the scale-out, the soak, the long calls) is a bench of its own.
if (['--mix', '--soak', '--transfer'].some((name) => process.argv.includes(name))) {
  await import('./bench/day.ts');
  process.exit(0);
}
/**
 * BENCH_ONLY=throughput,checkout: only those sections (throughput, lcp, checkout, signed-in, search-sql; --books and
 * --orders add theirs), for a short measurement while working on one of them; BENCH_CALLS=categories,search picks the
 * throughput table's calls whose label contains one of the words.
 */
const ONLY = process.env.BENCH_ONLY?.split(',').map((section) => section.trim());
const runs = (section: string) => !ONLY || ONLY.includes(section);
const JSON_OUT = process.argv.includes('--json') ? (argument('json') ?? 'bench-results.json') || 'bench-results.json' : null;
/**
 * BENCH_SERVER_PROCESSES: how many processes of each server the throughput table runs, its rounds
 * spread over them (bench/throughput.ts says why). Each holds up to its pool and its listener.
 */
const SERVER_PROCESSES = runs('throughput') ? Number(process.env.BENCH_SERVER_PROCESSES ?? 3) : 1;
if (!Number.isInteger(SERVER_PROCESSES) || SERVER_PROCESSES < 1) throw new Error('BENCH_SERVER_PROCESSES must be a whole number from 1');
const POOL_SIZE = 10;
/** Every connection the servers' pools, their listeners and the bench's own app, baseline and clients may hold. */
const CONNECTIONS_NEEDED = 3 * SERVER_PROCESSES * (POOL_SIZE + 2) + 3 * POOL_SIZE + 10;
const cluster = await startTestCluster({ max_connections: String(Math.max(100, CONNECTIONS_NEEDED)) });
const url = `${cluster.baseUrl}/bench_${process.pid}`;
const admin = new pg.Client({ connectionString: `${cluster.baseUrl}/postgres` });
await admin.connect();
const maxConnections = Number((await admin.query<{ max_connections: string }>('SHOW max_connections')).rows[0]!.max_connections);
if (maxConnections < CONNECTIONS_NEEDED) {
  // TEST_DATABASE_URL's or a container's server keeps its own setting.
  throw new Error(
    `${SERVER_PROCESSES} processes of each server may need ${CONNECTIONS_NEEDED} connections; the server allows ${maxConnections}: ` +
      'raise max_connections or lower BENCH_SERVER_PROCESSES',
  );
}
await admin.query(`CREATE DATABASE bench_${process.pid}`);
await applyMigrations(url);
await seedDatabase(url, () => {});
let statements = 0;
const countStatement = () => {
  statements++;
};
// With the web app, so that its pages (the sitemap) are served too.
ensureWebBuild();
const config = loadConfig({
  NODE_ENV: 'test',
  DATABASE_URL: url,
  LOG_LEVEL: 'silent',
  DATABASE_POOL_SIZE: String(POOL_SIZE),
  WEB_DIST: webDist,
});
const app = await buildApp(config, { logger: false, onQuery: countStatement });
await app.ready();
const bare = bareCatalog(url, POOL_SIZE, countStatement, config.jwtSecret);

const login = async (account: string, password: string) => {
  const res = await app.inject({ method: 'POST', url: '/api/public/authentication/login', payload: { account, password } });
  return res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
};
const client = await login('client@bookshop.test', 'Client123!');
const employee = await login('admin@bookshop.test', 'Admin123!');

async function median(path: string, cookie = ''): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < ROUNDS + 20; i++) {
    const start = performance.now();
    const res = await app.inject({ method: 'GET', url: path, headers: { cookie } });
    if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
    if (i >= 20) times.push(performance.now() - start); // the first 20 warm up
  }
  return percentile(times, 0.5);
}

// Ours as production runs it (the catalog cache on), and ours with the cache off, to show its share.
const processes = async (start: () => Promise<Server>) => {
  const started: Server[] = [];
  for (let i = 0; i < SERVER_PROCESSES; i++) started.push(await start());
  return started;
};
const ours = await processes(() =>
  startServer('ours', url, POOL_SIZE, { WEB_DIST: webDist, CATALOG_CACHE_MS: String(DEFAULT_CATALOG_CACHE_MS) }),
);
const oursUncached = await processes(() => startServer('ours', url, POOL_SIZE, { CATALOG_CACHE_MS: '0' }));
const bareServers = await processes(() => startServer('bare', url, POOL_SIZE));
const throughputRows = runs('throughput') ? await catalogThroughput(ours, bareServers, oursUncached) : [];
const lcp = runs('lcp') ? await largestContentfulPaintRow(ours[0]!) : null;
for (const server of [...ours, ...oursUncached, ...bareServers]) await server.stop();
const checkoutRow = runs('checkout')
  ? await checkoutComparison(Math.max(20, Number(process.env.BENCH_CHECKOUT_ROUNDS) || Math.min(ROUNDS, 100)))
  : null;
if (runs('signed-in')) await signedInLatency();
if (runs('search-sql')) await searchInSql();

/** The signed-in calls' median latency against a trivial call of the same app. */
async function signedInLatency() {
  const baseline = await median('/api/health');
  const cases: [string, string, string?][] = [
    ['recommended (signed in)', '/api/public/book-copy/recommended/', client],
    ['my orders', '/api/client/orders/1,5', client],
    ['back-office orders with items', '/api/employee/order/1,5', employee],
    ['dashboard totals', '/api/employee/statistics/', employee],
  ];
  console.log(`\nsigned-in calls against GET /api/health (one trivial query): median ${baseline.toFixed(2)} ms over ${ROUNDS} requests\n`);
  console.log('call'.padEnd(40), 'median ms'.padStart(10), 'x baseline'.padStart(11));
  for (const [label, path, cookie] of cases) {
    const ms = await median(path, cookie);
    console.log(label.padEnd(40), ms.toFixed(2).padStart(10), (ms / baseline).toFixed(1).padStart(11));
  }
}

/** The books' word index against a forced sequential scan, in the database itself. */
async function searchInSql() {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const searchSql =
    "SELECT id FROM books WHERE string_to_array(search_text, ' ') && '{harry,harris}' AND string_to_array(search_text, ' ') && '{potter}'";
  const executionMs = async () => {
    let total = 0;
    for (let i = 0; i < 20; i++) {
      const { rows } = await db.query<{ 'QUERY PLAN': { 'Execution Time': number }[] }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${searchSql}`);
      total += rows[0]!['QUERY PLAN'][0]!['Execution Time'];
    }
    return total / 20;
  };
  await db.query('SET enable_seqscan = off');
  const indexed = await executionMs();
  await db.query('SET enable_seqscan = on; SET enable_bitmapscan = off; SET enable_indexscan = off');
  const scanned = await executionMs();
  console.log(
    `\nsearch in SQL: word index ${indexed.toFixed(2)} ms, sequential scan ${scanned.toFixed(2)} ms: the index is ${(scanned / indexed).toFixed(1)}x faster`,
  );
  await db.end();
}

/** Issue 30's calls at the grown size: statements per request and plan shape (set by growth()). */
let browsePlans: Awaited<ReturnType<typeof reportBrowsePlans>> = [];
const staffRows = ORDERS_TO > 0 ? await staffReportsGrowth(ORDERS_TO) : [];
const growthRows = GROW_TO > 0 ? await growth(GROW_TO) : [];
if (JSON_OUT) {
  await writeBenchJson(JSON_OUT, {
    books: GROW_TO || null,
    orders: ORDERS_TO || null,
    throughput: throughputRows,
    checkout: checkoutRow,
    largestContentfulPaint: lcp,
    growth: growthRows,
    staffReports: staffRows,
    browsePlans,
  });
}

console.log(`\nthe bench took ${((performance.now() - benchStarted) / 60_000).toFixed(1)} min`);
await app.close();
await bare.close();
await admin.query(`DROP DATABASE bench_${process.pid} WITH (FORCE)`);
await admin.end();
await cluster.stop();

/**
 * Issue 11's first goal: every public catalog call at least 0.90x the throughput of the bare
 * baseline. Bodies and headers are compared first: a ratio means something only for the same answer.
 * Ours runs as in production, with the catalog cache; `uncached` is ours with the cache off, measured
 * in the same rounds, so the table also shows what the framework costs without it.
 */
async function catalogThroughput(ours: Server[], baseline: Server[], uncached: Server[]) {
  // Two 2 s rounds on each process (six on three): a median of short rounds over several processes,
  // where one process's three rounds of 3 s each made a mean (bench/throughput.ts).
  const seconds = Number(process.env.BENCH_SECONDS ?? 2);
  const rounds = Number(process.env.BENCH_THROUGHPUT_ROUNDS ?? 2 * ours.length);
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
  const calls: [string, string][] = [
    ['categories', '/api/public/book-copy/types/'],
    ['category page (Fantasy, page 2)', '/api/public/book-copy/by-type/Fantasy,2,15'],
    ['book detail', '/api/public/book-copy/by-id/1234'],
    ['search "harry poter" (typo)', '/api/public/book-copy/by-name/harry%20poter'],
    ['search "tolkien"', '/api/public/book-copy/by-name/tolkien'],
    ['search "a" (short word)', '/api/public/book-copy/by-name/a'],
    ['new releases', '/api/public/book-copy/new-releases/'],
    ['best sellers', '/api/public/book-copy/best-sellers/'],
    ['top rated', '/api/public/book-copy/top-rated/'],
    ['recommended', '/api/public/book-copy/recommended/'],
  ];
  const answer = async (server: typeof app | typeof bare, path: string) => {
    statements = 0;
    const res = await server.inject({ method: 'GET', url: path });
    if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
    const { date: _date, connection: _connection, ...headers } = res.headers;
    return { body: res.body, headers: JSON.stringify(Object.entries(headers).sort()), statements };
  };
  const wanted = process.env.BENCH_CALLS?.split(',').map((word) => word.trim());
  const checked = [];
  for (const [label, path] of calls.filter(([label]) => !wanted || wanted.some((word) => label.includes(word)))) {
    const ourAnswer = await answer(app, path);
    const bareAnswer = await answer(bare, path);
    if (ourAnswer.body !== bareAnswer.body)
      throw new Error(`${path}: the baseline's body differs from ours\nours: ${ourAnswer.body}\nbare: ${bareAnswer.body}`);
    if (ourAnswer.headers !== bareAnswer.headers)
      throw new Error(`${path}: the baseline's headers differ from ours\nours: ${ourAnswer.headers}\nbare: ${bareAnswer.headers}`);
    checked.push({ label, path, statements: ourAnswer.statements, bareStatements: bareAnswer.statements });
  }

  console.log(
    `\nthroughput, ours against bare Fastify + node-postgres running the same SQL (${connections} connections, ${rounds} x ${seconds} s each, interleaved, ` +
      `over ${ours.length} process${ours.length === 1 ? '' : 'es'} of each)\n`,
  );
  console.log(
    'call'.padEnd(34),
    'ours req/s'.padStart(11),
    'bare req/s'.padStart(11),
    'ratio'.padStart(6),
    'uncached req/s'.padStart(15),
    'ratio'.padStart(6),
    'statements'.padStart(11),
    '',
  );
  const rows = [];
  for (const call of checked) {
    const measured = await compareThroughput(call.path, ours, baseline, { rounds, seconds, connections, uncached });
    const met = measured.ratio >= 0.9;
    console.log(
      call.label.padEnd(34),
      measured.ours.toFixed(0).padStart(11),
      measured.bare.toFixed(0).padStart(11),
      ratioFigure(measured.ratio, 0.9).padStart(6),
      (measured.uncached ?? 0).toFixed(0).padStart(15),
      ratioFigure(measured.uncachedRatio ?? 0, 0.9).padStart(6),
      `${call.statements} / ${call.bareStatements}`.padStart(11),
      met ? ' met' : ' MISSED (goal 0.90)',
      (measured.byProcess.uncached?.length ?? 0) > 1 ? ` (uncached, by process: ${processRatios(measured).join(', ')})` : '',
    );
    rows.push({
      call: call.label,
      path: call.path,
      ...measured,
      processes: ours.length,
      statements: call.statements,
      bareStatements: call.bareStatements,
      met,
    });
  }
  console.log(`\n${rows.filter((r) => r.met).length} of ${rows.length} calls at 0.90x the bare baseline or better`);
  return rows;
}

/**
 * Issue 11's checkout goal: at least 0.70x a bare transaction with the same guarantees
 * (bench/bare-checkout.ts), in at most 6 statements of its own. Each checkout orders two books put in
 * the cart just before (untimed); ours and the baseline alternate, and the ratio is of the medians.
 */
async function checkoutComparison(rounds: number) {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const [{ id: clientId }] = (await db.query<{ id: number }>("SELECT id FROM clients WHERE account = 'client@bookshop.test'")).rows as [
    { id: number },
  ];
  const copies = (
    await db.query<{ id: number; price: string }>('SELECT id, price::text FROM book_copies WHERE is_available ORDER BY id LIMIT 2')
  ).rows;
  const copyIds = copies.map((c) => c.id);
  await db.query('UPDATE book_copies SET quantity = 1000000 WHERE id = ANY($1::int[])', [copyIds]);
  const totalPrice = copies.reduce((sum, c) => sum + Math.round(Number(c.price) * 100), 0) / 100;
  const checkout = async (server: typeof app | typeof bare, round: number) => {
    const { rows } = await db.query<{ id: number }>(
      'INSERT INTO cart_items (client_id, book_copy_id, quantity) SELECT $1, unnest($2::int[]), 1 RETURNING id',
      [clientId, copyIds],
    );
    statements = 0;
    const start = performance.now();
    const res = await server.inject({
      method: 'POST',
      url: '/api/client/orders/',
      headers: { cookie: client, 'idempotency-key': `bench-${server === app ? 'ours' : 'bare'}-${round}` },
      payload: { shipmentAddress: '5 Rue Ben Boulaid, Constantine', totalPrice, totalQuantity: 2, cartItemsIds: rows.map((r) => r.id) },
    });
    const ms = performance.now() - start;
    if (res.statusCode !== 200) throw new Error(`checkout: ${res.statusCode} ${res.body}`);
    return { ms, statements };
  };
  const oursTimes: number[] = [];
  const bareTimes: number[] = [];
  let oursStatements = 0;
  let bareStatements = 0;
  for (let round = 0; round < rounds + 10; round++) {
    // Each goes first in every other round, so neither always meets a database the other just warmed.
    const [o, b] =
      round % 2 === 0
        ? [await checkout(app, round), await checkout(bare, round)]
        : await checkout(bare, round).then(async (first) => [await checkout(app, round), first] as const);
    oursStatements = o.statements;
    bareStatements = b.statements;
    if (round >= 10) {
      oursTimes.push(o.ms); // the first 10 warm up
      bareTimes.push(b.ms);
    }
  }
  await db.end();
  const ours = percentile(oursTimes, 0.5);
  const baseline = percentile(bareTimes, 0.5);
  const ratio = baseline / ours;
  const met = ratio >= 0.7;
  const verdict32 =
    ratio >= CHECKOUT_GOAL_32 ? 'PASS' : `MISSED by ${(CHECKOUT_GOAL_32 - ratio).toFixed(2)} (goal ${CHECKOUT_GOAL_32.toFixed(2)})`;
  console.log(
    `\ncheckout of two books, one at a time (median of ${rounds}, session check included): ours ${ours.toFixed(2)} ms, bare transaction ${baseline.toFixed(2)} ms, ` +
      `ratio bare/ours ${ratio.toFixed(2)} (requests per second of one client)${met ? ' met' : ' MISSED (goal 0.70)'}, statements ${oursStatements} / ${bareStatements}; ` +
      `issue 32's goal: ${verdict32}`,
  );
  return { oursMs: ours, bareMs: baseline, ratio, statements: oursStatements, bareStatements, met };
}

/** Issue 11's delivery goal: the home page's LCP at most 1.2x that of a static twin of the same content. */
async function largestContentfulPaintRow(server: Server) {
  const executablePath = await findChromium();
  if (!executablePath) {
    console.log('\nno Chromium, so no Largest Contentful Paint (set CHROMIUM_PATH or install one)');
    return null;
  }
  const runs = Number(process.env.BENCH_LCP_RUNS ?? 7);
  const result = await homePageLcp(server.url, executablePath, runs);
  console.log(
    `\nhome page Largest Contentful Paint (Chromium, cold, median of ${runs}): ours ${result.ours.toFixed(0)} ms, static twin ${result.staticTwin.toFixed(0)} ms, ratio ${result.ratio.toFixed(2)}${result.ratio <= 1.2 ? ' met' : ' MISSED (goal 1.2)'}`,
  );
  return { ...result, met: result.ratio <= 1.2 };
}

/** p50 and p95 of a call, in ms, over `rounds` requests after a warm-up. */
async function percentiles(path: string, rounds: number, cookie = '') {
  const times: number[] = [];
  for (let i = 0; i < rounds + 10; i++) {
    const start = performance.now();
    const res = await app.inject({ method: 'GET', url: path, headers: { cookie } });
    if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
    if (i >= 10) times.push(performance.now() - start);
  }
  return { p50: percentile(times, 0.5), p95: percentile(times, 0.95) };
}

/**
 * Growth: the same calls on the seed catalog and on a synthetic catalog of `books` books (the seed's
 * books repeated with numbered titles, ratings scaled, one available copy each), with the goals of
 * issue 11: searches within 3x their seed p95 (or 50 ms), any category page at most 20 ms, the home
 * lists at most 10 ms (p95).
 */
async function growth(books: number) {
  const rounds = Number(process.env.BENCH_GROWTH_ROUNDS ?? 60);
  const lastPage = async (type: string) =>
    ((await app.inject({ method: 'GET', url: `/api/public/book-copy/by-type/${type},1,15` })).json() as { data: { totalPages: number } })
      .data.totalPages;
  type Call = { label: string; path: () => Promise<string | string[]>; goal: (seedP95: number) => number };
  const scalar = async (sql: string) => {
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      return Object.values((await db.query(sql)).rows[0] as object)[0] as unknown;
    } finally {
      await db.end();
    }
  };
  const busiestAuthor = async () =>
    Number(await scalar('SELECT author_id FROM books GROUP BY author_id ORDER BY count(*) DESC, author_id LIMIT 1'));
  const searchGoal = (seedP95: number) => Math.max(3 * seedP95, 50);
  const fantasyAuthor = async () =>
    Number(
      await scalar(
        "SELECT b.author_id FROM books b JOIN book_types t ON t.id = b.type_id WHERE t.name = 'Fantasy' GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1",
      ),
    );
  const calls: Call[] = [
    ...['a', 'x', 'ab', 'the', 'of', 'tolkien', 'harry poter'].map((q) => ({
      label: `search "${q}"`,
      path: async () => `/api/public/book-copy/by-name/${encodeURIComponent(q)}`,
      goal: searchGoal,
    })),
    { label: 'category page 1 (Fantasy)', path: async () => '/api/public/book-copy/by-type/Fantasy,1,15', goal: () => 20 },
    {
      label: 'category last page (Fantasy)',
      path: async () => `/api/public/book-copy/by-type/Fantasy,${await lastPage('Fantasy')},15`,
      goal: () => 20,
    },
    ...['new-releases', 'best-sellers', 'top-rated', 'recommended'].map((list) => ({
      label: list,
      path: async () => `/api/public/book-copy/${list}/`,
      goal: () => 10,
    })),
    // Beyond the spec: the author page of the author with the most books, first and last page, and the
    // sitemap. A sitemap file always lists up to SITEMAP_BOOKS_PER_FILE books, so the seed's one
    // (5,143 books) is smaller than the 1M catalog's full ones: the search's goal applies.
    { label: 'author page 1 (most books)', path: async () => `/api/public/authors/${await busiestAuthor()}`, goal: () => 20 },
    {
      label: 'author last page (most books)',
      path: async () => {
        const id = await busiestAuthor();
        const first = (await app.inject({ method: 'GET', url: `/api/public/authors/${id}?pageSize=15` })).json() as {
          data: { totalPages: number };
        };
        return `/api/public/authors/${id}?pageNumber=${first.data.totalPages}&pageSize=15`;
      },
      goal: () => 20,
    },
    { label: 'sitemap index', path: async () => '/sitemap.xml', goal: () => 20 },
    {
      label: 'sitemap file (the last)',
      path: async () =>
        `/sitemaps/books-${Math.ceil(Number(await scalar('SELECT max(id) FROM book_copies')) / SITEMAP_BOOKS_PER_FILE)}.xml`,
      goal: searchGoal,
    },
    // Issue 30: sorts, filters and facet counts, a filtered search, suggestions (scripts/bench/browse.ts).
    ...browseCalls(fantasyAuthor),
  ];
  // A call of several addresses (one per combination) reports its worst address's p95.
  const worstOf = async (paths: string[]) => {
    const each = [];
    for (const path of paths) each.push(await percentiles(path, Math.ceil(rounds / 2)));
    return { p50: Math.max(...each.map((e) => e.p50)), p95: Math.max(...each.map((e) => e.p95)) };
  };
  const measure = async () => {
    const out = new Map<string, { p50: number; p95: number }>();
    for (const call of calls) {
      const path = await call.path();
      out.set(call.label, Array.isArray(path) ? await worstOf(path) : await percentiles(path, rounds));
    }
    return out;
  };
  const growthStarted = performance.now();
  const seed = await measure();

  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const started = performance.now();
  const [{ n: base }] = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM books')).rows as [{ n: number }];
  console.log(`\ngrowing the catalog from ${base} to ${books} books`);
  await growCatalog(db, base, books);
  await db.query('VACUUM ANALYZE');
  await app.catalogProjections.refresh();
  // The load leaves hundreds of megabytes of dirty pages for the checkpointer to write while the reads are
  // measured; a shop serves its catalog long after it was loaded, so the reads are measured after.
  await db.query('CHECKPOINT');
  const generatedSeconds = (performance.now() - started) / 1000;
  console.log(`generated in ${generatedSeconds.toFixed(0)} s`);
  await db.end();

  const rows = growthTable(books, calls, seed, await measure());
  const statementsOf = async (path: string) => {
    statements = 0;
    await app.inject({ method: 'GET', url: path });
    return statements;
  };
  browsePlans = await reportBrowsePlans(url, statementsOf, await fantasyAuthor());
  console.log(
    `\n${rows.filter((r) => r.met).length} of ${rows.length} growth goals met; catalog generated in ${generatedSeconds.toFixed(0)} s,` +
      ` the growth run (both catalogs measured) took ${((performance.now() - growthStarted) / 1000).toFixed(0)} s`,
  );
  return rows;
}

/**
 * Issue 16's reports at scale: the dashboard's charts, Low Stock and the audit log's first page, on
 * the seed's orders and on a generated history of `orders` orders (two years, one to three lines
 * each, the seed's status mix), p95 within 3x the seed's or 50 ms, whichever is more. The charts and
 * Low Stock read the daily aggregates that triggers keep (sales_daily*), so their cost follows a
 * month's days, not the history.
 */
async function staffReportsGrowth(orders: number) {
  const rounds = Number(process.env.BENCH_GROWTH_ROUNDS ?? 60);
  const calls = [
    ['chart: daily sales', '/api/employee/statistics/charts/daily-sales'],
    ['chart: units by category', '/api/employee/statistics/charts/category-units'],
    ['chart: status mix', '/api/employee/statistics/charts/status-mix'],
    ['low stock, first page', '/api/employee/low-stock/'],
    ['audit log, first page', '/api/employee/audit-log/'],
    ['dashboard counts', '/api/employee/statistics/'],
    ['orders, first page', '/api/employee/order/1,15'],
  ] as const;
  const measure = async () => {
    const out = new Map<string, { p50: number; p95: number }>();
    for (const [label, path] of calls) out.set(label, await percentiles(path, rounds, employee));
    return out;
  };
  const seed = await measure();

  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const started = performance.now();
  const [{ n: base }] = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM orders')).rows as [{ n: number }];
  console.log(`\ngrowing the order history from ${base} to ${orders} orders`);
  await growOrders(db, base, orders);
  await db.query('VACUUM ANALYZE orders, order_items, sales_daily, sales_daily_categories, sales_daily_copies');
  const generatedSeconds = (performance.now() - started) / 1000;
  console.log(`generated in ${generatedSeconds.toFixed(0)} s`);
  await db.end();

  const rows = growthTable(
    orders,
    calls.map(([label]) => ({ label, goal: (seedP95: number) => Math.max(3 * seedP95, 50) })),
    seed,
    await measure(),
  );
  console.log(
    `\n${rows.filter((r) => r.met).length} of ${rows.length} staff report goals met; orders generated in ${generatedSeconds.toFixed(0)} s`,
  );
  return rows;
}

type Timing = { p50: number; p95: number };

/** Prints the seed's and the grown data's p50/p95 of each call beside its goal, and answers them as rows. */
function growthTable(
  size: number,
  calls: { label: string; goal: (seedP95: number) => number }[],
  seed: Map<string, Timing>,
  grown: Map<string, Timing>,
) {
  console.log(
    '\ncall'.padEnd(32),
    'seed p50'.padStart(9),
    'seed p95'.padStart(9),
    `${size} p50`.padStart(12),
    `${size} p95`.padStart(12),
    'goal p95'.padStart(9),
  );
  return calls.map((call) => {
    const before = seed.get(call.label)!;
    const after = grown.get(call.label)!;
    const goal = call.goal(before.p95);
    const met = after.p95 <= goal;
    console.log(
      call.label.padEnd(31),
      before.p50.toFixed(1).padStart(9),
      before.p95.toFixed(1).padStart(9),
      after.p50.toFixed(1).padStart(12),
      after.p95.toFixed(1).padStart(12),
      goal.toFixed(0).padStart(9),
      met ? ' met' : ' MISSED',
    );
    return { call: call.label, seed: before, grown: after, goalP95: goal, met };
  });
}

// `npm run bench`: how fast the main calls are, as ratios against a baseline measured in the same run
// (so the numbers mean the same on any machine). Runs the real app in-process on a throwaway,
// seeded database. Also compares the search plan with and without its trigram index.
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { buildApp } from '../api/src/app.ts';
import { loadConfig } from '../api/src/config.ts';
import { seedDatabase } from '../seed/seed.ts';
import { startTestCluster } from './lib/database.ts';
import { applyMigrations } from './lib/schema-engine.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
const cluster = await startTestCluster();
const url = `${cluster.baseUrl}/bench_${process.pid}`;
const admin = new pg.Client({ connectionString: `${cluster.baseUrl}/postgres` });
await admin.connect();
await admin.query(`CREATE DATABASE bench_${process.pid}`);
await applyMigrations(url);
await seedDatabase(url, () => {});
const app = await buildApp(loadConfig({ NODE_ENV: 'test', DATABASE_URL: url, LOG_LEVEL: 'silent' }), { logger: false });
await app.ready();

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
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

const baseline = await median('/api/health');
const cases: [string, string, string?][] = [
  ['categories', '/api/public/book-copy/types/'],
  ['category page (Fantasy, page 100)', '/api/public/book-copy/by-type/Fantasy,100,15'],
  ['book detail', '/api/public/book-copy/by-id/1234'],
  ['search with a typo ("harry poter")', '/api/public/book-copy/by-name/harry%20poter'],
  ['new releases', '/api/public/book-copy/new-releases/'],
  ['top rated', '/api/public/book-copy/top-rated/'],
  ['bestsellers', '/api/public/book-copy/best-sellers/'],
  ['recommended (signed in)', '/api/public/book-copy/recommended/', client],
  ['my orders', '/api/client/orders/1,5', client],
  ['back-office orders with items', '/api/employee/order/1,5', employee],
  ['dashboard totals', '/api/employee/statistics/', employee],
];
console.log(`baseline GET /api/health (one trivial query): median ${baseline.toFixed(2)} ms over ${ROUNDS} requests\n`);
console.log('call'.padEnd(40), 'median ms'.padStart(10), 'x baseline'.padStart(11));
for (const [label, path, cookie] of cases) {
  const ms = await median(path, cookie);
  console.log(label.padEnd(40), ms.toFixed(2).padStart(10), (ms / baseline).toFixed(1).padStart(11));
}

// The trigram index against a forced sequential scan, in the database itself.
const db = new pg.Client({ connectionString: url });
await db.connect();
const searchSql = "SELECT id FROM books WHERE search_text LIKE '%harry poter%' OR 'harry poter' <% search_text";
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
  `\nsearch in SQL: trigram index ${indexed.toFixed(2)} ms, sequential scan ${scanned.toFixed(2)} ms: the index is ${(scanned / indexed).toFixed(1)}x faster`,
);
await db.end();

await app.close();
await admin.query(`DROP DATABASE bench_${process.pid} WITH (FORCE)`);
await admin.end();
await cluster.stop();

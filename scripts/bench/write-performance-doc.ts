// Writes docs/performance.md's tables from `npm run bench -- --json FILE` results, so no figure there
// is typed by hand. Each table goes between its markers (`<!-- bench:NAME -->` … `<!-- /bench:NAME -->`)
// and says which run it comes from: when, on what machine, with which arguments. The prose around the
// markers is the reading of the figures, kept by hand.
//
//   npx tsx scripts/bench/write-performance-doc.ts RUN.json [MORE.json…] [--out docs/performance.md]
//
// Several files: each table comes from the last file that has it (a `--books` run has the growth
// table, an `--orders` run the staff reports'), so one run need not measure everything.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

type Timing = { p50: number; p95: number };
type GrowthRow = { call: string; seed: Timing; grown: Timing; goalP95: number; met: boolean };
/** What scripts/bench.ts writes with --json. */
export interface BenchRun {
  date?: string;
  arguments?: string[];
  machine: { cpus: number; cpu?: string | null; memoryGiB: number; node: string; settings?: Record<string, string> };
  books?: number | null;
  orders?: number | null;
  throughput: {
    call: string;
    ours: number;
    bare: number;
    ratio: number;
    uncached?: number;
    uncachedRatio?: number;
    statements: number;
    bareStatements: number;
    met: boolean;
  }[];
  checkout: { oursMs: number; bareMs: number; ratio: number; statements: number; bareStatements: number; met: boolean } | null;
  largestContentfulPaint: { ours: number; staticTwin: number; ratio: number; met: boolean } | null;
  growth: GrowthRow[];
  staffReports: GrowthRow[];
  /** Issue 30's calls at the grown size: statements of one request, the indexes read, catalog tables scanned. */
  browsePlans?: { call: string; statements: number; reads: string[]; scans: string[] }[];
  /** Set on results copied from a run's printed tables rather than written by --json. */
  note?: string;
}

const THROUGHPUT_GOAL = 0.9;
const fixed = (n: number, digits: number) => n.toFixed(digits);
const thousands = (n: number) => Math.round(n).toLocaleString('en-US');

/** "Run of 2026-11-24 on 2 cores (…), 24 GiB, Node v20.20: `npm run bench -- --books 1000000` (BENCH_SECONDS=2)." */
export function runLine(run: BenchRun) {
  const { machine } = run;
  const settings = Object.entries(machine.settings ?? {}).map(([name, value]) => `${name}=${value}`);
  // What was measured: the arguments but where the results were written.
  const args = (run.arguments ?? []).filter((arg, i, all) => arg !== '--json' && all[i - 1] !== '--json');
  const command = `npm run bench${args.length ? ` -- ${args.join(' ')}` : ''}`;
  return (
    `*Run of ${run.date ? run.date.slice(0, 10) : 'an unknown date'} on ${machine.cpus} cores` +
    `${machine.cpu ? ` (${machine.cpu})` : ''}, ${machine.memoryGiB} GiB, Node ${machine.node}: ` +
    `\`${settings.length ? `${settings.join(' ')} ` : ''}${command}\`.*${run.note ? ` ${run.note}` : ''}`
  );
}

const table = (head: string[], rows: string[][]) =>
  [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');

export function throughputSection(run: BenchRun) {
  const rows = run.throughput;
  const met = rows.filter((r) => r.met).length;
  const uncached = rows.filter((r) => r.uncachedRatio !== undefined).map((r) => r.uncachedRatio!);
  const lines = [
    runLine(run),
    '',
    table(
      ['call (seed catalog)', 'ours req/s', 'bare req/s', 'ratio', 'uncached req/s', 'uncached ratio', 'statements ours / bare'],
      rows.map((r) => [
        r.call,
        String(Math.round(r.ours)),
        String(Math.round(r.bare)),
        fixed(r.ratio, 2),
        r.uncached === undefined ? '' : String(Math.round(r.uncached)),
        r.uncachedRatio === undefined ? '' : fixed(r.uncachedRatio, 2),
        `${r.statements} / ${r.bareStatements}`,
      ]),
    ),
    '',
    `The goal is ${fixed(THROUGHPUT_GOAL, 2)}, met for ${met} of the ${rows.length} calls.` +
      (uncached.length
        ? ` Without the cache, ${uncached.filter((r) => r >= THROUGHPUT_GOAL).length} of the ${uncached.length} reach ${fixed(THROUGHPUT_GOAL, 2)}` +
          ` (${fixed(Math.min(...uncached), 2)}–${fixed(Math.max(...uncached), 2)}).`
        : ''),
  ];
  return lines.join('\n');
}

export function checkoutSection(run: BenchRun) {
  const lines = [runLine(run), ''];
  const c = run.checkout;
  if (c) {
    lines.push(
      `- **Checkout** of two books, one client at a time: ours ${fixed(c.oursMs, 2)} ms, the bare transaction ${fixed(c.bareMs, 2)} ms` +
        ` (ratio ${fixed(c.ratio, 2)}, goal 0.70, ${c.met ? 'met' : 'missed'}); statements ${c.statements} / ${c.bareStatements}, the session check included.`,
    );
  }
  const l = run.largestContentfulPaint;
  if (l) {
    lines.push(
      `- **Largest Contentful Paint** of the home page in Chromium: ours ${Math.round(l.ours)} ms, its static twin ${Math.round(l.staticTwin)} ms,` +
        ` ratio ${fixed(l.ratio, 2)} (goal 1.2, ${l.met ? 'met' : 'missed'}).`,
    );
  }
  return lines.join('\n');
}

export function growthSection(run: BenchRun, rows: GrowthRow[], size: number | null | undefined, unit: string) {
  const grown = size ? `${thousands(size)} ${unit}` : 'grown';
  const short = size ? (size >= 1_000_000 && size % 1_000_000 === 0 ? `${size / 1_000_000}M` : thousands(size)) : 'grown';
  const met = rows.filter((r) => r.met).length;
  return [
    runLine(run),
    '',
    table(
      ['call', 'seed p50', 'seed p95', `${short} p50`, `${short} p95`, 'goal (p95)'],
      rows.map((r) => [
        r.call,
        fixed(r.seed.p50, 1),
        fixed(r.seed.p95, 1),
        fixed(r.grown.p50, 1),
        fixed(r.grown.p95, 1),
        `${Math.round(r.goalP95)}, ${r.met ? 'met' : 'missed'}`,
      ]),
    ),
    '',
    `Milliseconds, on the seed data and on ${grown}: ${met} of the ${rows.length} goals met.`,
  ].join('\n');
}

export function browsePlansSection(run: BenchRun) {
  const rows = run.browsePlans ?? [];
  return [
    runLine(run),
    '',
    table(
      ['call (at the grown size)', 'statements', 'catalog tables scanned', 'indexes read'],
      rows.map((r) => [r.call, String(r.statements), r.scans.length ? r.scans.join(', ') : 'none', r.reads.join(', ')]),
    ),
  ].join('\n');
}

/** The sections and the run each is taken from: the last file that has it. */
export function sections(runs: BenchRun[]) {
  const last = (has: (run: BenchRun) => boolean) => runs.findLast(has);
  const out: Record<string, string> = {};
  const throughput = last((r) => r.throughput.length > 0);
  if (throughput) out.throughput = throughputSection(throughput);
  const checkout = last((r) => !!r.checkout || !!r.largestContentfulPaint);
  if (checkout) out.checkout = checkoutSection(checkout);
  const growth = last((r) => r.growth.length > 0);
  if (growth) out.growth = growthSection(growth, growth.growth, growth.books, 'books');
  const plans = last((r) => (r.browsePlans ?? []).length > 0);
  if (plans) out['browse-plans'] = browsePlansSection(plans);
  const staff = last((r) => r.staffReports.length > 0);
  if (staff) out.staff = growthSection(staff, staff.staffReports, staff.orders, 'orders');
  return out;
}

/** The document with each section's markers' content replaced; a section without its markers is an error. */
export function fillDocument(document: string, filled: Record<string, string>) {
  let text = document;
  for (const [name, content] of Object.entries(filled)) {
    const start = `<!-- bench:${name} -->`;
    const end = `<!-- /bench:${name} -->`;
    const from = text.indexOf(start);
    const to = text.indexOf(end);
    if (from === -1 || to < from) throw new Error(`The document has no ${start} … ${end} for the ${name} table.`);
    text = `${text.slice(0, from + start.length)}\n${content}\n${text.slice(to)}`;
  }
  return text;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const outAt = args.indexOf('--out');
  const out = outAt === -1 ? path.resolve(import.meta.dirname, '../../docs/performance.md') : path.resolve(args[outAt + 1]!);
  const files = outAt === -1 ? args : args.filter((_, i) => i !== outAt && i !== outAt + 1);
  if (!files.length) {
    console.error('usage: npx tsx scripts/bench/write-performance-doc.ts RUN.json [MORE.json…] [--out docs/performance.md]');
    process.exit(2);
  }
  const runs = files.map((file) => JSON.parse(readFileSync(file, 'utf8')) as BenchRun);
  const filled = sections(runs);
  writeFileSync(out, fillDocument(readFileSync(out, 'utf8'), filled));
  console.log(`${path.relative(process.cwd(), out)}: ${Object.keys(filled).join(', ')} written from ${files.join(', ')}`);
}

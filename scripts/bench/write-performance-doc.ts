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
import { isMain } from '../lib/is-main.ts';
import { type CpuShares, describeCpu, describeLoops } from './cpu.ts';
import { describeLoopDelay, type KindStats, MIX_RATIO_GOAL, type MixStep, rateVerdict } from './mix.ts';

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
    /** Runs since 27 November (late): each server ran as this many processes, the rounds spread over them. */
    processes?: number;
    /** Each process index's median rate; the processes of one index ran in the same moments (bench/throughput.ts). */
    byProcess?: { ours: number[]; bare: number[]; uncached?: number[] };
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
  /** Issue 32's day of traffic (`--mix`, `--soak`, `--transfer`: scripts/bench/day.ts). */
  mix?: {
    ours: MixFound;
    bare: MixFound;
    /** Null (or 0 in runs before 2026-11-26) when bare sustained none of the rates tried; the verdict is read from the rates. */
    ratio: number | null;
    goal: number;
    met: boolean;
    /** The same search with no import beside the shoppers: the import's share of the gap. */
    withoutImport?: { ours: MixFound; bare: MixFound; ratio: number | null };
    loadAverage: number[];
  };
  scaleOut?: ScaleOutRun;
  /** The same with each instance held to `instanceCpus` of a core (runs since 26 November, late). */
  scaleOutCapped?: ScaleOutRun;
  soak?: {
    rate: number;
    minutes: number;
    samples: {
      minute: number;
      heapMB: number;
      /** The least heap sampled in the minute (runs since 26 November). */
      heapFloorMB?: number;
      rssMB: number;
      idleInTransaction: number;
      p99: number;
      calls: number;
      failures: number;
    }[];
    /** heap: of the least samples when the run has them (then heapMedian is of the medians), else of the medians. */
    drift: { p99: number; heap: number; heapMedian?: number; rss: number };
    goals: { p99: number; heap: number; rss: number };
    tableGrowth: Record<string, number>;
    /** Each table that grew, by how much the soak's writes allow, and whether it stayed within. */
    tableGrowthExplained?: { table: string; rows: number; allowed: number; because: string; explained: boolean }[];
    idleInTransactionMax: number;
    loadAverage: number[];
  };
  transfer?: {
    export: {
      status: number;
      firstByteMs: number;
      totalMs: number;
      bytes: number;
      heldMB: number;
      /** The export's statement read bare through a cursor (since 2 December): the database's pace. */
      bareCursor?: { rows: number; totalMs: number };
    };
    import: { rows: number; checkStatus: number; checkMs: number; runMs: number; status: string; heldMB: number };
    loadAverage: number[];
  };
}

/** One instance behind the proxy against two on the standby, each in a CPU quota when `instanceCpus` is set. */
interface ScaleOutRun {
  one: MixFound & Throttled;
  two: MixFound & Throttled;
  gain: number;
  met: boolean;
  /** The same without the import, whose stall caps both configurations alike. */
  withoutImport?: { one: MixFound; two: MixFound; gain: number };
  replication: { state: string; replayLagBytes: number } | null;
  instanceCpus?: number;
  loadAverage: number[];
}

/** How long each instance's CPU quota held it back during its search (cpu-quota.ts). */
type Throttled = { throttled?: { periods: number; ms: number }[] };

/** The highest rate a configuration sustained, its steps, and each kind's percentiles at that rate. */
type MixFound = {
  rate: number;
  /** `attempt` 2: a failed step's second try (runs before 26 November have neither). */
  steps: {
    rate: number;
    attempt?: number;
    p99: number;
    failures: number;
    passed: boolean;
    kinds?: { kind: string; calls: number; p99: number }[];
    /** Runs before 26 November (late) have no CPU shares and no loop delays. */
    cpu?: CpuShares;
    loopDelay?: MixStep['loopDelay'];
    /** Runs before 28 November have no scheduler counts. */
    loops?: MixStep['loops'];
  }[];
  stats: { all: KindStats; kinds: KindStats[] } | null;
};

const THROUGHPUT_GOAL = 0.9;
const fixed = (n: number, digits: number) => n.toFixed(digits);
/**
 * A ratio to two places, or, where two would round it up onto its goal, cut to three: 0.8997 is
 * "0.899", not a "0.90" beside a "missed".
 */
export const ratioFigure = (ratio: number, goal: number) =>
  ratio < goal && fixed(ratio, 2) === fixed(goal, 2) ? fixed(Math.floor(ratio * 1000) / 1000, 3) : fixed(ratio, 2);
const thousands = (n: number) => Math.round(n).toLocaleString('en-US');
/** How many of a table's ratios reach the per-call goal, and their range: its section and the goals' table say the same. */
const reachingGoal = (ratios: number[]) => ratios.filter((ratio) => ratio >= THROUGHPUT_GOAL).length;
const ratioRange = (ratios: number[]) =>
  `${ratioFigure(Math.min(...ratios), THROUGHPUT_GOAL)}–${ratioFigure(Math.max(...ratios), THROUGHPUT_GOAL)}`;

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

/**
 * Each uncached process against the bare process that ran in the same moments: how far a process's
 * luck (and that moment of the machine's) moves a ratio.
 */
export const processRatios = (row: Pick<BenchRun['throughput'][number], 'byProcess'>) =>
  (row.byProcess?.uncached ?? []).map((rate, i) => fixed(rate / row.byProcess!.bare[i]!, 2));

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
        ratioFigure(r.ratio, THROUGHPUT_GOAL),
        r.uncached === undefined ? '' : String(Math.round(r.uncached)),
        r.uncachedRatio === undefined ? '' : ratioFigure(r.uncachedRatio, THROUGHPUT_GOAL),
        `${r.statements} / ${r.bareStatements}`,
      ]),
    ),
    '',
    `The goal is ${fixed(THROUGHPUT_GOAL, 2)}, met for ${met} of the ${rows.length} calls.` +
      (uncached.length
        ? ` Without the cache, ${reachingGoal(uncached)} of the ${uncached.length} reach ${fixed(THROUGHPUT_GOAL, 2)}` +
          ` (${ratioRange(uncached)}).`
        : '') +
      processesLine(rows),
  ];
  return lines.join('\n');
}

function processesLine(rows: BenchRun['throughput']) {
  const processes = rows[0]?.processes ?? 1;
  if (processes < 2) return '';
  const spread = rows
    .filter((r) => (r.byProcess?.uncached?.length ?? 0) > 1)
    .map((r) => {
      const ratios = processRatios(r).map(Number);
      return `${r.call} ${fixed(Math.min(...ratios), 2)}–${fixed(Math.max(...ratios), 2)}`;
    });
  return (
    ` Each server ran as ${processes} processes of the same build, its rounds spread over them, and each rate is the median` +
    ` of its rounds` +
    (spread.length ? `; the lowest and highest uncached process against the bare process beside it: ${spread.join(', ')}.` : '.')
  );
}

/** Issue 32's checkout goal, stricter than issue 11's 0.70: a ratio of at least 0.95. */
export const CHECKOUT_GOAL_32 = 0.95;

export function checkoutSection(run: BenchRun) {
  const lines = [runLine(run), ''];
  const c = run.checkout;
  if (c) {
    lines.push(
      `- **Checkout** of two books, one client at a time: ours ${fixed(c.oursMs, 2)} ms, the bare transaction ${fixed(c.bareMs, 2)} ms` +
        ` (ratio ${ratioFigure(c.ratio, CHECKOUT_GOAL_32)}, goal 0.70, ${c.met ? 'met' : 'missed'}; issue 32's goal ${fixed(CHECKOUT_GOAL_32, 2)}, ${c.ratio >= CHECKOUT_GOAL_32 ? 'met' : `missed by ${fixed(CHECKOUT_GOAL_32 - c.ratio, 2)}`});` +
        ` statements ${c.statements} / ${c.bareStatements}, the session check included.`,
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

const load = (average: number[] | undefined) => (average ? `load average ${average.map((l) => fixed(l, 2)).join(', ')}` : '');
const percentiles = (k: KindStats | undefined) => (k ? [fixed(k.p50, 1), fixed(k.p95, 1), fixed(k.p99, 1)] : ['', '', '']);
const steps = (found: MixFound) =>
  found.steps
    .map(
      (s) =>
        `${Math.round(s.rate)}/s ${s.passed ? 'pass' : 'fail'}${(s.attempt ?? 1) > 1 ? ' on a second try' : ''} (p99 ${fixed(s.p99, 0)}${s.cpu ? `, CPU ${fixed(s.cpu.busy * 100, 0)} %` : ''})`,
    )
    .join(', ');
/**
 * Who kept the cores busy at a configuration's highest passing rate (with the servers' event loops'
 * scheduling a call there, when measured), and at the lowest rate above it that failed, with the
 * event loops' longest ticks there: what a failure was short of.
 */
const coresAt = (name: string, found: MixFound) => {
  const passed = found.steps.findLast((s) => s.passed && s.rate === found.rate);
  const failedAbove = found.steps
    .filter((s) => !s.passed && s.rate > found.rate)
    .sort((a, b) => a.rate - b.rate || (b.attempt ?? 1) - (a.attempt ?? 1))[0];
  if (!passed?.cpu) return null;
  const failure = failedAbove?.cpu
    ? `, and ${Math.round(failedAbove.rate)}/s failed at ${describeCpu(failedAbove.cpu)}` +
      (failedAbove.loopDelay ? `, the ${describeLoopDelay(failedAbove.loopDelay)}` : '')
    : '';
  const loops = passed.loops ? `, ${describeLoops(passed.loops, passed.loopDelay?.servers.length ?? 1)}` : '';
  return `${name}: ${found.rate}/s passed at ${describeCpu(passed.cpu)}${loops}${failure}`;
};
/** " The cores' use (all cores together = 100 %): …", when the steps measured it. */
const coresUse = (lines: (string | null)[]) => {
  const measured = lines.filter((line) => line !== null);
  return measured.length ? ` The cores' use (all cores together = 100 %), ${measured.join('; ')}.` : '';
};
const verdict = (met: boolean, distance: string) => (met ? 'PASS' : `missed by ${distance}`);

/** Runs before 2026-11-26 counted the import in `all`; their calls tell which a run's figures are. */
const allLabel = (stats: MixFound['stats']) =>
  stats && stats.all.calls !== stats.kinds.filter((k) => k.kind !== 'import').reduce((sum, k) => sum + k.calls, 0)
    ? 'all, the import included'
    : 'all but the import';

/** Two configurations' sustained rates side by side, with each kind's p50/p95/p99 at its own rate. */
function kindsTable(a: MixFound, b: MixFound, [nameA, nameB]: [string, string]) {
  if (!a.stats && !b.stats) return lowestStepTable(a, b, [nameA, nameB]);
  const kinds = [...new Set([...(a.stats?.kinds ?? []), ...(b.stats?.kinds ?? [])].map((k) => k.kind))];
  const of = (found: MixFound, kind: string) => found.stats?.kinds.find((k) => k.kind === kind);
  return table(
    ['kind', `${nameA} p50`, 'p95', 'p99', `${nameB} p50`, 'p95', 'p99', `calls ${nameA} / ${nameB}`],
    [
      ...kinds.map((kind) => [
        kind,
        ...percentiles(of(a, kind)),
        ...percentiles(of(b, kind)),
        `${of(a, kind)?.calls ?? 0} / ${of(b, kind)?.calls ?? 0}`,
      ]),
      [
        allLabel(a.stats ?? b.stats),
        ...percentiles(a.stats?.all),
        ...percentiles(b.stats?.all),
        `${a.stats?.all.calls ?? 0} / ${b.stats?.all.calls ?? 0}`,
      ],
    ],
  );
}

/** When no rate passed: each kind's p99 and calls at the first rate tried (the most calls), which says what kept the steps from passing. */
function lowestStepTable(a: MixFound, b: MixFound, [nameA, nameB]: [string, string]) {
  const [stepA, stepB] = [a.steps[0]!, b.steps[0]!];
  const kinds = [...new Set([...(stepA.kinds ?? []), ...(stepB.kinds ?? [])].map((k) => k.kind))];
  const of = (step: typeof stepA, kind: string) => step.kinds?.find((k) => k.kind === kind);
  return table(
    ['kind', `${nameA} p99 at ${stepA.rate}/s`, 'calls', `${nameB} p99 at ${stepB.rate}/s`, 'calls'],
    kinds.map((kind) => [
      kind,
      fixed(of(stepA, kind)?.p99 ?? 0, 1),
      String(of(stepA, kind)?.calls ?? 0),
      fixed(of(stepB, kind)?.p99 ?? 0, 1),
      String(of(stepB, kind)?.calls ?? 0),
    ]),
  );
}

/** Two configurations' runs of the mix: the kinds' table, the verdict, and the steps that led to it. */
function comparisonSection(run: BenchRun, [a, b]: [MixFound, MixFound], names: [string, string], loadAverage: number[], finding: string) {
  return [
    `${runLine(run)} Measured at ${load(loadAverage)}.`,
    '',
    kindsTable(a, b, names),
    '',
    finding + coresUse([coresAt(names[0], a), coresAt(names[1], b)]),
    '',
    `Steps, ${names[0]}: ${steps(a)}. ${names[1]}: ${steps(b)}.`,
  ].join('\n');
}

const ratioText = ({ ratio }: { ratio: number | null }) => (ratio === null ? 'bare none of the rates tried' : `ratio ${fixed(ratio, 2)}`);

export function mixSection(run: BenchRun) {
  const mix = run.mix!;
  const alone = mix.withoutImport;
  // From the rates, not the stored ratio: runs before 2026-11-26 stored 0 when bare sustained nothing.
  const sustained = rateVerdict(mix.ours.rate, mix.bare.rate);
  return comparisonSection(
    run,
    [mix.ours, mix.bare],
    ['ours', 'bare'],
    mix.loadAverage,
    (mix.ours.stats || mix.bare.stats
      ? "Milliseconds from when each call was due, at each one's highest sustained rate (the import's dry run and start included). "
      : 'No rate passed, for either: the table shows each kind at the first rate tried. ') +
      `**Sustained: ours ${mix.ours.rate}/s, bare ${mix.bare.rate}/s, ${ratioText(sustained)}** ` +
      `(goal ${fixed(MIX_RATIO_GOAL, 2)}: ${verdict(sustained.met, fixed(MIX_RATIO_GOAL - (sustained.ratio ?? 0), 2))}).` +
      (alone
        ? ` Without the import: ours ${alone.ours.rate}/s, bare ${alone.bare.rate}/s, ${ratioText(rateVerdict(alone.ours.rate, alone.bare.rate))}` +
          ` (steps, ours: ${steps(alone.ours)}; bare: ${steps(alone.bare)}).`
        : ''),
  );
}

export function scaleOutSection(run: BenchRun, out: ScaleOutRun = run.scaleOut!) {
  const seconds = (found: Throttled) => found.throttled?.map((t) => `${fixed(t.ms / 1000, 1)} s`).join(' and ');
  const held =
    out.one.throttled && out.two.throttled
      ? ` Over each search (its warm-up and its steps: ${out.one.steps.length} for one, ${out.two.steps.length} for two), the quota held ` +
        `the one instance back for ${seconds(out.one)} and the two for ${seconds(out.two)}.`
      : '';
  return comparisonSection(
    run,
    [out.one, out.two],
    ['one', 'two'],
    out.loadAverage,
    `**Behind the proxy${out.instanceCpus ? `, each instance held to ${out.instanceCpus} of a core` : ''}: one instance ${out.one.rate}/s, ` +
      `two instances with the catalog on the streaming standby ${out.two.rate}/s ` +
      // Issue 32's goal is for the instances as they run, not held to a quota: a capped run gives no verdict.
      `(${fixed(out.gain, 2)}x${out.instanceCpus ? '' : `: ${out.met ? 'PASS' : 'missed'}`})**; the standby after the run: ` +
      `${out.replication ? `${out.replication.state}, replay ${out.replication.replayLagBytes} bytes behind` : 'not streaming'}.${held}` +
      (out.withoutImport
        ? ` Without the import: one instance ${out.withoutImport.one.rate}/s, two ${out.withoutImport.two.rate}/s (${fixed(out.withoutImport.gain, 2)}x;` +
          ` steps, one: ${steps(out.withoutImport.one)}; two: ${steps(out.withoutImport.two)}).`
        : ''),
  );
}

/**
 * Each of a soak's goals, met or not, and the tables whose growth its writes do not explain (none
 * listed when the run did not check them): its section and the goals' table read the same verdicts.
 */
function soakVerdicts(soak: NonNullable<BenchRun['soak']>) {
  // A drift down (faster, smaller) is no drift the goal is about.
  const within = (name: 'p99' | 'heap' | 'rss') => soak.drift[name] <= soak.goals[name];
  const unexplained = soak.tableGrowthExplained?.filter((t) => !t.explained).map((t) => t.table);
  const met = {
    p99: within('p99'),
    heap: within('heap'),
    rss: within('rss'),
    idle: soak.idleInTransactionMax === 0,
    growth: unexplained !== undefined && unexplained.length === 0,
  };
  return { met, unexplained, all: Object.values(met).every(Boolean) };
}

export function soakSection(run: BenchRun) {
  const soak = run.soak!;
  const { met } = soakVerdicts(soak);
  const percent = (n: number) => `${fixed(n * 100, 1)} %`;
  const goal = (name: 'p99' | 'heap' | 'rss') =>
    `${percent(soak.drift[name])} (goal ${percent(soak.goals[name])}: ${verdict(met[name], percent(soak.drift[name] - soak.goals[name]))})`;
  const floors = soak.drift.heapMedian !== undefined;
  return [
    `${runLine(run)} Measured at ${load(soak.loadAverage)}.`,
    '',
    table(
      ['minute', 'p99 ms', 'calls', '5xx or unanswered', floors ? 'heap MB (median, least)' : 'heap MB', 'RSS MB', 'idle in transaction'],
      soak.samples.map((s) => [
        String(s.minute),
        fixed(s.p99, 1),
        String(s.calls),
        String(s.failures),
        s.heapFloorMB === undefined ? fixed(s.heapMB, 1) : `${fixed(s.heapMB, 1)}, ${fixed(s.heapFloorMB, 1)}`,
        fixed(s.rssMB, 1),
        String(s.idleInTransaction),
      ]),
    ),
    '',
    `The mix at ${soak.rate}/s for ${soak.minutes} minutes. Drift after the warm-up (the mean of the last third of the minutes ` +
      `against the first): p99 ${goal('p99')}, heap ${floors ? "(each minute's least sample, what the collections leave) " : ''}${goal('heap')}${
        floors ? `, of the medians ${percent(soak.drift.heapMedian!)}` : ''
      }, RSS ${goal('rss')}. Connections idle in transaction, at most: ` +
      `${soak.idleInTransactionMax} (${met.idle ? 'PASS' : 'missed'}). Rows added: ` +
      `${
        (
          soak.tableGrowthExplained ??
          Object.entries(soak.tableGrowth).map(([table, rows]) => ({ table, rows, because: '', allowed: 0, explained: false }))
        )
          .map(
            (t) =>
              `${t.table} ${t.rows > 0 ? '+' : ''}${t.rows}${t.because ? ` (${t.allowed} ${t.because})` : ''}${t.explained ? '' : ' UNEXPLAINED'}`,
          )
          .join(', ') || 'none'
      }.`,
  ].join('\n');
}

export function transferSection(run: BenchRun) {
  const { export: out, import: into, loadAverage } = run.transfer!;
  return [
    `${runLine(run)} Measured at ${load(loadAverage)}.`,
    '',
    `- **Export** of the whole catalog (${fixed(out.bytes / 2 ** 20, 1)} MB of CSV, status ${out.status}): the first byte after ` +
      `${fixed(out.firstByteMs, 0)} ms, the whole file after ${fixed(out.totalMs / 1000, 1)} s; the server held ${fixed(out.heldMB, 1)} MB more RSS at its peak.` +
      (out.bareCursor
        ? ` The same statement read bare through a cursor, as many rows at a time and nothing else done (the database's pace): ` +
          `${thousands(out.bareCursor.rows)} rows in ${fixed(out.bareCursor.totalMs / 1000, 1)} s, the export ${fixed(out.totalMs / out.bareCursor.totalMs, 2)}x that.`
        : ''),
    `- **Import** of ${thousands(into.rows)} rows: the dry run ${fixed(into.checkMs, 0)} ms (status ${into.checkStatus}), the run ` +
      `${fixed(into.runMs / 1000, 1)} s (${into.status}); the server held ${fixed(into.heldMB, 1)} MB more RSS at its peak.`,
  ].join('\n');
}

/**
 * The run each section shows: the last file that has its figures. The goals' table reads the same
 * runs, so a goal's verdict is always the one its section gives.
 */
export function shownRuns(runs: BenchRun[]) {
  const last = (has: (run: BenchRun) => boolean) => runs.findLast(has);
  return {
    throughput: last((r) => r.throughput.length > 0),
    // Checkout and the first paint share a section, so a run with either is the one shown.
    checkout: last((r) => !!r.checkout || !!r.largestContentfulPaint),
    growth: last((r) => r.growth.length > 0),
    browsePlans: last((r) => (r.browsePlans ?? []).length > 0),
    staff: last((r) => r.staffReports.length > 0),
    // The seed catalog's day and a million books' day, each from its own last run.
    mix: last((r) => !!r.mix && !r.books),
    mixMillion: last((r) => !!r.mix && !!r.books),
    scaleOut: last((r) => !!r.scaleOut),
    scaleOutCapped: last((r) => !!r.scaleOutCapped),
    soak: last((r) => !!r.soak),
    transfer: last((r) => !!r.transfer),
  };
}

/** "Intel Xeon" for "Intel(R) Xeon(R) Processor": the machine, short enough for a table's cell. */
const machineName = ({ machine }: BenchRun) =>
  machine.cpu ? machine.cpu.replace(/\((R|TM)\)/g, '').replace(/ Processor$/, '') : 'a machine not recorded';
/** "2026-11-28, Intel Xeon": which run a goal's row was read from. */
const runOf = (run: BenchRun) => `${run.date ? run.date.slice(0, 10) : 'an unknown date'}, ${machineName(run)}`;
const signed = (n: number) => `${n > 0 ? '+' : ''}${fixed(n * 100, 1)} %`;
const sizeOf = (size: number | null | undefined, unit: string) => (size ? `${thousands(size)} ${unit}` : `the grown ${unit}`);

type Verdict = 'met' | 'missed' | 'no verdict';
const judged = (met: boolean): Verdict => (met ? 'met' : 'missed');

/**
 * One goal the bench measures: which of the shown runs its row reads, whether a run measured it
 * comparably (the same catalog's or history's size, the same soak's length), and what a run gives.
 */
interface Goal {
  title: string;
  section: string;
  shown: keyof ReturnType<typeof shownRuns>;
  measures(run: BenchRun): boolean;
  judge(run: BenchRun): { result: string; verdict: Verdict };
}

/** Two runs' sizes (of the catalog or the order history) are the same: none given is the seed's. */
const sameSize = (a: number | null | undefined, b: number | null | undefined) => (a || null) === (b || null);

/** The goals of the runs shown, in the table's order. */
function goalsOf(shown: ReturnType<typeof shownRuns>): Goal[] {
  const day = 'a-days-traffic-the-mix-two-instances-and-a-replica-a-soak';
  const uncachedRatios = (run: BenchRun) => run.throughput.filter((r) => r.uncachedRatio !== undefined).map((r) => r.uncachedRatio!);
  const goals: Goal[] = [
    {
      title: `Each catalog read at ${fixed(THROUGHPUT_GOAL, 2)}x bare's rate or better`,
      section: 'catalog-throughput',
      shown: 'throughput',
      measures: (run) => run.throughput.length > 0,
      judge: ({ throughput: calls }) => {
        const met = calls.filter((r) => r.met).length;
        return {
          result: `${met} of ${calls.length} calls (${ratioRange(calls.map((r) => r.ratio))})`,
          verdict: judged(met === calls.length),
        };
      },
    },
    {
      title: `Each catalog read with the cache off at ${fixed(THROUGHPUT_GOAL, 2)}x bare's rate or better (issue 32)`,
      section: 'catalog-throughput',
      shown: 'throughput',
      measures: (run) => uncachedRatios(run).length > 0,
      judge: (run) => {
        const uncached = uncachedRatios(run);
        const met = reachingGoal(uncached);
        return { result: `${met} of ${uncached.length} calls (${ratioRange(uncached)})`, verdict: judged(met === uncached.length) };
      },
    },
    {
      title: "Checkout at 0.70x the bare transaction's rate or better",
      section: 'checkout-and-the-first-paint',
      shown: 'checkout',
      measures: (run) => !!run.checkout,
      judge: ({ checkout }) => ({ result: ratioFigure(checkout!.ratio, CHECKOUT_GOAL_32), verdict: judged(checkout!.met) }),
    },
    {
      title: `Checkout at ${fixed(CHECKOUT_GOAL_32, 2)}x the bare transaction's rate or better (issue 32)`,
      section: 'checkout-and-the-first-paint',
      shown: 'checkout',
      measures: (run) => !!run.checkout,
      judge: ({ checkout }) => ({
        result: ratioFigure(checkout!.ratio, CHECKOUT_GOAL_32),
        verdict: judged(checkout!.ratio >= CHECKOUT_GOAL_32),
      }),
    },
    {
      title: "The home page's Largest Contentful Paint within 1.2x its static twin's",
      section: 'checkout-and-the-first-paint',
      shown: 'checkout',
      measures: (run) => !!run.largestContentfulPaint,
      judge: ({ largestContentfulPaint: paint }) => ({ result: fixed(paint!.ratio, 2), verdict: judged(paint!.met) }),
    },
  ];
  const grown = (
    what: string,
    shownAs: 'growth' | 'staff',
    rowsOf: (run: BenchRun) => GrowthRow[],
    sizeIn: (run: BenchRun) => number | null | undefined,
  ) => {
    const size = shown[shownAs] && sizeIn(shown[shownAs]);
    goals.push({
      title: `Each ${what} at ${sizeOf(size, shownAs === 'growth' ? 'books' : 'orders')} within its goal`,
      section: shownAs === 'growth' ? 'growth-a-million-books' : 'growth-a-million-orders',
      shown: shownAs,
      measures: (run) => rowsOf(run).length > 0 && sameSize(sizeIn(run), size),
      judge: (run) => {
        const met = rowsOf(run).filter((g) => g.met).length;
        return { result: `${met} of ${rowsOf(run).length}`, verdict: judged(met === rowsOf(run).length) };
      },
    });
  };
  grown(
    "call's p95",
    'growth',
    (run) => run.growth,
    (run) => run.books,
  );
  grown(
    "staff report's p95",
    'staff',
    (run) => run.staffReports,
    (run) => run.orders,
  );
  const mix = (catalog: string, shownAs: 'mix' | 'mixMillion') => {
    const books = shown[shownAs]?.books;
    goals.push({
      title: `The day's mix on ${catalog}, one instance, at ${fixed(MIX_RATIO_GOAL, 2)}x bare's rate or better (issue 32)`,
      section: day,
      shown: shownAs,
      measures: (run) => !!run.mix && sameSize(run.books, books),
      judge: ({ mix: found }) => {
        // From the rates, as its section reads them: runs before 2026-11-26 stored 0 when bare sustained nothing.
        const { ratio, met } = rateVerdict(found!.ours.rate, found!.bare.rate);
        return {
          result:
            `ours ${found!.ours.rate}/s, bare ${found!.bare.rate}/s` +
            (ratio === null ? ' (bare sustained none of the rates tried)' : ` (${ratioFigure(ratio, MIX_RATIO_GOAL)})`),
          verdict: judged(met),
        };
      },
    });
  };
  mix('the seed catalog', 'mix');
  mix(sizeOf(shown.mixMillion?.books, 'books'), 'mixMillion');
  goals.push({
    title: 'Two instances with the catalog on the streaming standby sustain more than one (issue 32)',
    section: day,
    shown: 'scaleOut',
    measures: (run) => !!run.scaleOut && sameSize(run.books, shown.scaleOut?.books),
    judge: ({ scaleOut: out }) => ({
      result: `two ${out!.two.rate}/s, one ${out!.one.rate}/s (${ratioFigure(out!.gain, 1)}x)`,
      // As its section: a run with the instances held to a quota gives no verdict.
      verdict: out!.instanceCpus ? 'no verdict' : judged(out!.met),
    }),
  });
  const { minutes } = shown.soak?.soak ?? {};
  goals.push({
    title: `A ${minutes}-minute soak stays flat (issue 32)`,
    section: day,
    shown: 'soak',
    measures: (run) => run.soak?.minutes === minutes && sameSize(run.books, shown.soak?.books),
    judge: ({ soak }) => {
      const { drift, goals: most, idleInTransactionMax: idle } = soak!;
      const { unexplained, all } = soakVerdicts(soak!);
      const growth =
        unexplained === undefined
          ? "tables' growth not checked"
          : unexplained.length
            ? `growth unexplained: ${unexplained.join(', ')}`
            : "every table's growth explained";
      return {
        result:
          `p99 ${signed(drift.p99)}, heap ${signed(drift.heap)}, RSS ${signed(drift.rss)} (goals ${fixed(most.p99 * 100, 0)}, ` +
          `${fixed(most.heap * 100, 0)} and ${fixed(most.rss * 100, 0)} % at most); ` +
          `${idle === 0 ? 'no connection' : `${idle} connection${idle === 1 ? '' : 's'}`} idle in transaction; ${growth}`,
        verdict: judged(all),
      };
    },
  });
  return goals.filter((goal) => shown[goal.shown] && goal.measures(shown[goal.shown]!));
}

/**
 * "3 of 9 (AMD EPYC 3 of 5, Intel Xeon 0 of 4)": of the runs given that measured the goal and gave
 * a verdict, how many met it, and by machine unless every run met it or none did: how often it has
 * been met so far.
 */
export function keptRunsMeeting(goal: Goal, runs: BenchRun[]) {
  const byMachine = new Map<string, { met: number; judged: number }>();
  for (const run of runs) {
    if (!goal.measures(run)) continue;
    const { verdict } = goal.judge(run);
    if (verdict === 'no verdict') continue;
    const machine = machineName(run);
    const count = byMachine.get(machine) ?? { met: 0, judged: 0 };
    byMachine.set(machine, { met: count.met + (verdict === 'met' ? 1 : 0), judged: count.judged + 1 });
  }
  const counts = [...byMachine.values()];
  const met = counts.reduce((sum, c) => sum + c.met, 0);
  const judgedRuns = counts.reduce((sum, c) => sum + c.judged, 0);
  const mixed = met > 0 && met < judgedRuns;
  return `${met} of ${judgedRuns}${
    mixed && byMachine.size > 1 ? ` (${[...byMachine].map(([machine, c]) => `${machine} ${c.met} of ${c.judged}`).join(', ')})` : ''
  }`;
}

/**
 * Every goal the bench measures, one row each, with the figure and the verdict of the run its
 * section shows, and how many of the runs given met it: where the goals stand, on one screen, each
 * section below saying how it was measured and why.
 */
export function goalsSection(runs: BenchRun[]) {
  const shown = shownRuns(runs);
  const rows = goalsOf(shown).map((goal) => {
    const run = shown[goal.shown]!;
    const { result, verdict } = goal.judge(run);
    return [
      `[${goal.title}](#${goal.section})`,
      runOf(run),
      result,
      verdict === 'missed' ? '**missed**' : verdict,
      keptRunsMeeting(goal, runs),
    ];
  });
  return [
    table(['goal', 'the run shown', 'result', 'verdict', 'met in the kept runs'], rows),
    '',
    `${rows.filter(([, , , verdict]) => verdict === 'met').length} of the ${rows.length} goals met in the runs shown.`,
  ].join('\n');
}

export function sections(runs: BenchRun[]) {
  const shown = shownRuns(runs);
  const out: Record<string, string> = { goals: goalsSection(runs) };
  if (shown.throughput) out.throughput = throughputSection(shown.throughput);
  if (shown.checkout) out.checkout = checkoutSection(shown.checkout);
  if (shown.growth) out.growth = growthSection(shown.growth, shown.growth.growth, shown.growth.books, 'books');
  if (shown.browsePlans) out['browse-plans'] = browsePlansSection(shown.browsePlans);
  if (shown.staff) out.staff = growthSection(shown.staff, shown.staff.staffReports, shown.staff.orders, 'orders');
  if (shown.mix) out.mix = mixSection(shown.mix);
  if (shown.mixMillion) out['mix-million'] = mixSection(shown.mixMillion);
  if (shown.scaleOut) out['scale-out'] = scaleOutSection(shown.scaleOut);
  if (shown.scaleOutCapped) out['scale-out-capped'] = scaleOutSection(shown.scaleOutCapped, shown.scaleOutCapped.scaleOutCapped);
  if (shown.soak) out.soak = soakSection(shown.soak);
  if (shown.transfer) out.transfer = transferSection(shown.transfer);
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

if (isMain(import.meta.url)) {
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

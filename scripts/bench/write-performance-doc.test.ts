// The goals' table at the top of docs/performance.md gives each goal the verdict its own section
// gives, from the run that section shows: here, from kept runs, some with one figure moved across a
// goal's line. No server, no database: fast.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type BenchRun, goalsSection, ratioFigure, sections } from './write-performance-doc.ts';

const folder = path.resolve(import.meta.dirname, '../../docs/bench-runs');
const kept = (name: string) => JSON.parse(readFileSync(path.join(folder, name), 'utf8')) as BenchRun;
/** The cells of the goal whose text starts with `goal`: [goal, the run shown, result, verdict, met in the kept runs]. */
const rowOf = (runs: BenchRun[], goal: string) => {
  const line = goalsSection(runs)
    .split('\n')
    .find((l) => l.startsWith(`| [${goal}`));
  if (!line) throw new Error(`no row for "${goal}"`);
  return line.slice(2, -2).split(' | ');
};
const verdictOf = (runs: BenchRun[], goal: string) => rowOf(runs, goal)[3];

describe("the goals' table", () => {
  const mixRun = kept('2026-11-28T21-mix-xeon-request-log.json');
  const soakRun = kept('2026-11-27T12-mix-soak-xeon-counts-kept.json');
  const throughputRun = kept('2026-11-28T20-throughput-checkout-xeon-request-log.json');

  it("takes each goal from the run its section shows: the last that measured it, the first paint's too", () => {
    expect(rowOf([soakRun, mixRun], "The day's mix on the seed catalog")[1]).toBe('2026-11-28, Intel Xeon');
    expect(rowOf([soakRun, mixRun], 'A 20-minute soak')[1]).toBe('2026-11-27, Intel Xeon');
    // A run of checkout alone, after one that also measured the first paint: the section shows the later
    // run, with no first paint, so the goals' table has no first paint either.
    const withPaint = kept('2026-11-26T21-checkout-session-beside-body.json');
    const checkoutAlone = kept('2026-11-27-throughput-xeon.json');
    expect(withPaint.largestContentfulPaint).not.toBeNull();
    expect(checkoutAlone.largestContentfulPaint).toBeNull();
    const runs = [withPaint, checkoutAlone];
    expect(goalsSection(runs)).not.toContain('Largest Contentful Paint');
    expect(sections(runs).checkout).toContain(`Run of ${checkoutAlone.date!.slice(0, 10)}`);
    expect(rowOf(runs, 'Checkout at 0.70x')[1]).toBe(`${checkoutAlone.date!.slice(0, 10)}, Intel Xeon`);
  });

  it("says missed when bare's rate is above ours by more than the goal allows, and met at the goal itself", () => {
    const withRates = (ours: number, bare: number): BenchRun => ({
      ...mixRun,
      mix: { ...mixRun.mix!, ours: { ...mixRun.mix!.ours, rate: ours }, bare: { ...mixRun.mix!.bare, rate: bare } },
    });
    expect(verdictOf([withRates(89, 100)], "The day's mix")).toBe('**missed**');
    expect(verdictOf([withRates(90, 100)], "The day's mix")).toBe('met');
  });

  it('reads a mix whose bare sustained nothing from its rates, as its section does (runs before 26 November stored 0)', () => {
    const million = kept('2026-11-26-day-million.json');
    expect(million.mix!.bare.rate).toBe(0);
    expect(rowOf([million], "The day's mix on 1,000,000 books")).toEqual([
      expect.any(String),
      expect.any(String),
      `ours ${million.mix!.ours.rate}/s, bare 0/s (bare sustained none of the rates tried)`,
      'met',
      '1 of 1',
    ]);
  });

  it('misses the uncached goal when one call of ten falls short, and shows a ratio just under it to three places', () => {
    const calls = throughputRun.throughput.map((call) => ({ ...call, uncachedRatio: 0.95 }));
    const run = (ratios: typeof calls): BenchRun => ({ ...throughputRun, throughput: ratios });
    expect(verdictOf([run(calls)], 'Each catalog read with the cache off')).toBe('met');
    const oneShort = run(calls.map((call, i) => (i === 3 ? { ...call, uncachedRatio: 0.8997 } : call)));
    expect(rowOf([oneShort], 'Each catalog read with the cache off').slice(2, 4)).toEqual(['9 of 10 calls (0.899–0.95)', '**missed**']);
    expect(sections([oneShort]).throughput).toContain('| 0.899 |');
  });

  it('writes a ratio to two places unless two would round it up onto its goal, then cuts it to three', () => {
    expect(ratioFigure(0.8997, 0.9)).toBe('0.899');
    expect(ratioFigure(0.89999, 0.9)).toBe('0.899');
    expect(ratioFigure(0.9, 0.9)).toBe('0.90');
    expect(ratioFigure(0.9004, 0.9)).toBe('0.90');
    expect(ratioFigure(0.8949, 0.9)).toBe('0.89');
    expect(ratioFigure(0.9468, 0.95)).toBe('0.946');
    expect(ratioFigure(0.999, 1)).toBe('0.999');
  });

  it('gives two instances no verdict when they ran in a quota, as the section does', () => {
    const scaleOut = kept('2026-11-28T03-scale-out-amd-loops.json');
    expect(rowOf([scaleOut], 'Two instances').slice(2, 4)).toEqual(['two 453/s, one 739/s (0.61x)', '**missed**']);
    const capped: BenchRun = { ...scaleOut, scaleOut: { ...scaleOut.scaleOut!, instanceCpus: 0.5 } };
    expect(verdictOf([capped], 'Two instances')).toBe('no verdict');
  });

  it("misses the soak's goal on any one of its parts, and names a table whose growth is not explained", () => {
    const soak = soakRun.soak!;
    const withSoak = (change: Partial<NonNullable<BenchRun['soak']>>): BenchRun[] => [{ ...soakRun, soak: { ...soak, ...change } }];
    expect(verdictOf(withSoak({}), 'A 20-minute soak')).toBe('met');
    expect(verdictOf(withSoak({ drift: { ...soak.drift, heap: 0.051 } }), 'A 20-minute soak')).toBe('**missed**');
    expect(verdictOf(withSoak({ drift: { ...soak.drift, p99: 0.11 } }), 'A 20-minute soak')).toBe('**missed**');
    expect(verdictOf(withSoak({ idleInTransactionMax: 1 }), 'A 20-minute soak')).toBe('**missed**');
    const unexplained = withSoak({
      tableGrowthExplained: soak.tableGrowthExplained!.map((t) => (t.table === 'orders' ? { ...t, explained: false } : t)),
    });
    expect(rowOf(unexplained, 'A 20-minute soak')[2]).toContain('growth unexplained: orders');
    expect(verdictOf(unexplained, 'A 20-minute soak')).toBe('**missed**');
    // A run from before the growth was checked table by table has not shown it.
    expect(verdictOf(withSoak({ tableGrowthExplained: undefined }), 'A 20-minute soak')).toBe('**missed**');
  });

  it('counts the kept runs that met each goal, by machine, leaving out runs of another size and runs with no verdict', () => {
    const amd = kept('2026-11-28T03-throughput-checkout-amd.json');
    const xeon = kept('2026-11-29T00-throughput-checkout-xeon-request-log-2.json');
    const at = (run: BenchRun, ratio: number): BenchRun => ({ ...run, checkout: { ...run.checkout!, ratio } });
    const checkout = (runs: BenchRun[]) => rowOf(runs, 'Checkout at 0.95x')[4];
    expect(checkout([at(amd, 0.96), at(amd, 0.94), at(xeon, 0.95)])).toBe('2 of 3 (AMD EPYC 1 of 2, Intel Xeon 1 of 1)');
    // One machine: no breakdown. A run that did not measure checkout is not counted.
    expect(checkout([at(amd, 0.96), mixRun, at(amd, 0.9)])).toBe('1 of 2');
    // A million books' mix is not counted on the seed catalog's row, nor a shorter soak on the 20-minute soak's.
    const million = kept('2026-11-26-day-million.json');
    expect(rowOf([million, mixRun], "The day's mix on the seed catalog")[4]).toBe('1 of 1');
    const shortSoak: BenchRun = { ...soakRun, soak: { ...soakRun.soak!, minutes: 5 } };
    expect(rowOf([shortSoak, soakRun], 'A 20-minute soak')[4]).toBe('1 of 1');
    // Growth at another catalog's size is not counted with a million books'.
    const books = kept('2026-11-25-books-1000000.json');
    const smaller: BenchRun = { ...books, books: 100_000, growth: books.growth.map((g) => ({ ...g, met: false })) };
    expect(rowOf([smaller, books], "Each call's p95")[4]).toBe('1 of 1');
    expect(rowOf([{ ...smaller, books: 1_000_000 }, books], "Each call's p95")[4]).toBe('1 of 2');
    // A breakdown by machine where they differ; a run copied from printed tables names none.
    const unrecorded = kept('2026-11-24-books-1000000.json');
    expect(unrecorded.machine.cpu).toBeNull();
    const missed: BenchRun = { ...unrecorded, growth: unrecorded.growth.map((g) => ({ ...g, met: false })) };
    expect(rowOf([missed, books], "Each call's p95")[4]).toBe('1 of 2 (a machine not recorded 0 of 1, AMD EPYC 1 of 1)');
    // Every run met it: no breakdown.
    expect(rowOf([unrecorded, books], "Each call's p95")[4]).toBe('2 of 2');
    // A scale-out in a CPU quota gives no verdict, so it is not counted either way.
    const scaleOut = kept('2026-11-28T03-scale-out-amd-loops.json');
    const capped: BenchRun = { ...scaleOut, scaleOut: { ...scaleOut.scaleOut!, instanceCpus: 0.5 } };
    expect(rowOf([capped, scaleOut], 'Two instances')[4]).toBe('0 of 1');
  });

  it('counts the goals met', () => {
    // Each catalog read (met), uncached (missed), checkout at 0.70 (met) and 0.95 (missed), the first paint (met).
    expect(goalsSection([throughputRun])).toMatch(/\n3 of the 5 goals met in the runs shown\.$/);
  });

  it('has a row for every goal of the kept runs', () => {
    const runs = readdirSync(folder)
      .filter((name) => name.endsWith('.json'))
      .sort()
      .map(kept);
    expect(
      goalsSection(runs)
        .split('\n')
        .filter((line) => line.startsWith('| [')),
    ).toHaveLength(11);
  });
});

import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import type { IntervalHistogram } from 'node:perf_hooks';

/** The value below which a share `p` (0.5 for the median, 0.95 for p95) of the measurements fall. */
export const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.floor(values.length * p)]!;

/** The middle value, or the mean of the two middle ones for an even count (percentile(…, 0.5) takes the upper one). */
export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return Number.isInteger(middle) ? (sorted[middle - 1]! + sorted[middle]!) / 2 : sorted[Math.floor(middle)]!;
};

/** What a run was measured on, and the shared BENCH_ settings that change what it measures. */
export function benchMachine() {
  return {
    cpus: os.cpus().length,
    cpu: os.cpus()[0]?.model,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    settings: Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith('BENCH_'))),
  };
}

/** Writes a run's results for scripts/bench/write-performance-doc.ts: when, on what, and how, then the results. */
export async function writeBenchJson(file: string, results: Record<string, unknown>, machine: Record<string, unknown> = {}) {
  const run = { date: new Date().toISOString(), arguments: process.argv.slice(2), machine: { ...benchMachine(), ...machine }, ...results };
  await writeFile(file, `${JSON.stringify(run, null, 2)}\n`);
  console.log(`\nwrote ${file}`);
}

/** An event loop's ticks in ms (monitorEventLoopDelay's, which include its own resolution): the 99th percentile and the longest. */
export interface LoopDelay {
  p99: number;
  max: number;
}

/** From perf_hooks' monitorEventLoopDelay, which counts in nanoseconds. */
export const loopDelayMs = (histogram: IntervalHistogram): LoopDelay => ({
  p99: histogram.percentile(99) / 1e6,
  max: histogram.max / 1e6,
});

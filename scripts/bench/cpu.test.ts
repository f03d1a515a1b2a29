// The mix's CPU shares: read from Linux's /proc, they must see this process's own busy loop, and say
// who kept the cores busy in the order that matters.
import { existsSync } from 'node:fs';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { describeCpu, schedulerStats, watchCpu } from './cpu.ts';

describe('CPU shares of a step', () => {
  it.runIf(existsSync('/proc/stat'))('see a busy loop of this process as the load generator’s, in shares of all the cores', () => {
    const since = watchCpu()!;
    const until = Date.now() + 300;
    let spins = 0;
    while (Date.now() < until) spins++;
    const shares = since();
    expect(spins).toBeGreaterThan(0);
    // 300 ms of one core's time over 300 ms of the machine's: one core's share, less what the
    // scheduler gave other test files running beside this one (a misread field gives 0 or far more).
    const cores = os.cpus().length;
    expect(shares.groups['load generator']! * cores).toBeGreaterThan(0.1);
    expect(shares.groups['load generator']! * cores).toBeLessThan(1.2);
    // /proc counts in jiffies (10 ms), read a moment apart: over 300 ms, a few of them either way.
    expect(shares.busy).toBeGreaterThanOrEqual(shares.groups['load generator']! - 0.05);
    expect(shares.busy).toBeLessThanOrEqual(1);
  });

  it('are described largest first, leaving out groups under one percent', () => {
    expect(describeCpu({ busy: 0.943, groups: { 'load generator': 0.12, server: 0.48, PostgreSQL: 0.3, proxy: 0.004 } })).toBe(
      '94 % (server 48 %, PostgreSQL 30 %, load generator 12 %)',
    );
  });

  it.runIf(existsSync(`/proc/${process.pid}/schedstat`))('read from the scheduler the time this thread spent on a core', () => {
    const before = schedulerStats(process.pid)!;
    const until = Date.now() + 200;
    while (Date.now() < until);
    const after = schedulerStats(process.pid)!;
    // 200 ms of spinning is about 200 ms on a core, less what other test files took from it (a field
    // read in the wrong unit or place is off by a thousand or more).
    expect(after.runMs - before.runMs).toBeGreaterThan(50);
    expect(after.runMs - before.runMs).toBeLessThan(400);
    expect(after.waitMs).toBeGreaterThanOrEqual(before.waitMs);
    expect(after.slices).toBeGreaterThanOrEqual(before.slices);
    expect(schedulerStats(2 ** 22 + 1)).toBeNull();
  });
});

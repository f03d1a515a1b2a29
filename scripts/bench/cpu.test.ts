// The mix's CPU shares: read from Linux's /proc, they must see this process's own busy loop, and say
// who kept the cores busy in the order that matters.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import os from 'node:os';
import { describe, expect, it, onTestFinished } from 'vitest';
import { describeCpu, describeLoops, loopsACall, schedulerStats, watchCpu, watchScheduler } from './cpu.ts';

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
    const wallBefore = performance.now();
    // 200 ms of this process's CPU, however long other processes keep the cores from it. This thread
    // is the one that spins (vitest runs a test file in a process of its own: its `forks` pool).
    const cpuBefore = process.cpuUsage();
    let spentMs = 0;
    while (spentMs < 200) {
      const { user, system } = process.cpuUsage(cpuBefore);
      spentMs = (user + system) / 1000;
    }
    const wallMs = performance.now() - wallBefore;
    const after = schedulerStats(process.pid)!;
    // A field read in the wrong unit (ns as µs or ms) is off by a thousand or more.
    expect(after.runMs - before.runMs).toBeGreaterThan(150);
    expect(after.runMs - before.runMs).toBeLessThan(spentMs + 20);
    // Running and waiting to run are two parts of the same wall time.
    expect(after.runMs - before.runMs + (after.waitMs - before.waitMs)).toBeLessThan(wallMs + 20);
    expect(after.waitMs).toBeGreaterThanOrEqual(before.waitMs);
    // Each time it was put on a core it had given one up, or had it taken: the scheduler's two counts
    // agree (to a switch that came between the two files' reads).
    expect(Number.isInteger(after.slices)).toBe(true);
    expect(after.slices).toBeGreaterThanOrEqual(before.slices);
    expect(Math.abs(after.slices - (after.voluntarySwitches + after.involuntarySwitches))).toBeLessThanOrEqual(2);
    expect(after.involuntarySwitches).toBeGreaterThanOrEqual(before.involuntarySwitches);
    expect(schedulerStats(2 ** 22 + 1)).toBeNull();
  });

  it.runIf(existsSync(`/proc/${process.pid}/schedstat`))(
    'add up the scheduler’s counts of several servers over a step, a call',
    async () => {
      // This thread, which spins, and a child that sleeps: together they ran about what this thread ran.
      const sleeper = spawn(process.execPath, ['-e', "process.stdout.write('ready'); setTimeout(() => {}, 60_000)"], {
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      onTestFinished(() => {
        sleeper.kill();
      });
      // Node's own start takes tens of ms of CPU: counted from when it has started, it sleeps.
      await once(sleeper.stdout, 'data');
      const alone = watchScheduler([process.pid])!;
      const together = watchScheduler([sleeper.pid!, process.pid])!;
      const cpuBefore = process.cpuUsage();
      const spentUs = () => {
        const { user, system } = process.cpuUsage(cpuBefore);
        return user + system;
      };
      while (spentUs() < 100_000);
      const own = alone();
      const both = together();
      expect(own.runMs).toBeGreaterThan(70);
      // A pid's counts set against another's start (or only one of them read) is off by tens of ms at least;
      // the scheduler's counts may lag by a tick, and the child may run a little.
      expect(Math.abs(both.runMs - own.runMs)).toBeLessThan(25);
      expect(watchScheduler([process.pid, 2 ** 22 + 1])).toBeNull();
      sleeper.kill();
      await once(sleeper, 'exit');
      expect(together).toThrow(`the process ${sleeper.pid} ended`);

      const perCall = loopsACall({ runMs: 80, waitMs: 40, slices: 30, voluntarySwitches: 20, involuntarySwitches: 10 }, 100);
      expect(perCall).toEqual({ runMs: 0.8, waitMs: 0.4, woken: 0.2, preempted: 0.1 });
      expect(describeLoops(perCall, 1)).toBe(
        "the server's loop a call: 0.80 ms on a core, 0.40 ms waiting for one, woken 0.20 and preempted 0.10 times",
      );
      expect(describeLoops(perCall, 2)).toMatch(/^the servers' loops a call: /);
    },
  );
});

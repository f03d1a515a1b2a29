// The scale-out's per-instance CPU quota must hold a process to its share: a busy loop that would
// take a whole core gets about a quarter of one, and the kernel says it held the process back.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { cpuQuota } from './cpu-quota.ts';

/** Spins for `ms` of wall time once told to, then prints the CPU it got. */
const SPINNER = `process.stdin.once('data', () => {
  const start = process.cpuUsage();
  const until = Date.now() + Number(process.argv[1]);
  while (Date.now() < until);
  const used = process.cpuUsage(start);
  console.log((used.user + used.system) / 1000);
  process.stdin.destroy();
});`;

describe('a CPU quota', () => {
  const quota = cpuQuota(`bookshop-quota-test-${process.pid}`, 0.25);
  it.runIf(quota)('holds a busy process to a quarter of a core', async () => {
    const child = spawn(process.execPath, ['-e', SPINNER, '1000'], { stdio: ['pipe', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    const exited = once(child, 'exit');
    let held: ReturnType<NonNullable<typeof quota>['throttled']>;
    try {
      quota!.add(child.pid!);
      child.stdin.write('go\n');
      await exited;
      held = quota!.throttled();
    } finally {
      child.kill();
      await exited;
      quota!.remove();
    }
    const cpuMs = Number(output);
    // A second of wall time at a quarter of a core is 250 ms. Without the quota it would be about
    // 1,000 (less only if the other test files took the core); a misread quota would leave it there.
    expect(cpuMs).toBeGreaterThan(50);
    expect(cpuMs).toBeLessThan(400);
    expect(held.periods).toBeGreaterThan(10);
  });

  it('is refused for a share below the least the kernel allows', () => {
    expect(() => cpuQuota('never-made', 0)).toThrow('at least 0.1');
    expect(() => cpuQuota('never-made', 0.05)).toThrow('at least 0.1');
  });
});

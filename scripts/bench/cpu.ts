// Who kept the machine's cores busy during a step of the mix, from Linux's /proc: the machine's busy
// share, and each group of processes' share: the load generator, the servers under test (ours or
// bare), PostgreSQL and the proxy. On this bench's machines they all share the same cores, so a
// configuration that adds processes (two instances, a standby) can only be faster if a step of the
// one before left cores idle. Elsewhere (no /proc) there is nothing to read and the steps say nothing of CPU.
import { readdirSync, readFileSync } from 'node:fs';

export type CpuGroup = 'load generator' | 'server' | 'PostgreSQL' | 'proxy' | 'other';

/** Shares of all the machine's cores together (0-1): `busy` in all, and by group. */
export interface CpuShares {
  busy: number;
  groups: Partial<Record<CpuGroup, number>>;
}

interface Snapshot {
  /** Jiffies of all cores since boot: all, and idle (with iowait). */
  total: number;
  idle: number;
  /** User and system jiffies of each live process, by pid, with its group. */
  processes: Map<string, { group: CpuGroup; jiffies: number }>;
}

const read = (file: string) => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null; // a process that ended between the listing and the read
  }
};

function groupOf(pid: string, command: string): CpuGroup {
  if (pid === String(process.pid)) return 'load generator';
  if (command === 'postgres') return 'PostgreSQL';
  if (command === 'nginx') return 'proxy';
  // The bench's servers are `node … server-process.ts ours|bare` (throughput.ts).
  if (read(`/proc/${pid}/cmdline`)?.includes('server-process')) return 'server';
  return 'other';
}

function snapshot(): Snapshot | null {
  const stat = read('/proc/stat');
  if (!stat) return null;
  // "cpu  user nice system idle iowait irq softirq steal …", the first line being all cores together.
  const fields = stat.split('\n')[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
  const processes: Snapshot['processes'] = new Map();
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    const line = read(`/proc/${pid}/stat`);
    if (!line) continue;
    // "pid (command) state ppid …": the command may hold spaces, so the fields count from its ")".
    const close = line.lastIndexOf(')');
    const rest = line.slice(close + 2).split(' ');
    processes.set(pid, { group: groupOf(pid, line.slice(line.indexOf('(') + 1, close)), jiffies: Number(rest[11]) + Number(rest[12]) });
  }
  return { total: fields.reduce((sum, n) => sum + n, 0), idle: fields[3]! + fields[4]!, processes };
}

/** Starts watching; the function it answers gives the shares since. Null where /proc is not there. */
export function watchCpu(): (() => CpuShares) | null {
  const before = snapshot();
  if (!before) return null;
  return () => {
    const after = snapshot()!;
    const elapsed = after.total - before.total || 1;
    const groups: CpuShares['groups'] = {};
    for (const [pid, { group, jiffies }] of after.processes) {
      // A process started during the step counts from zero.
      const spent = jiffies - (before.processes.get(pid)?.jiffies ?? 0);
      groups[group] = (groups[group] ?? 0) + spent / elapsed;
    }
    return { busy: 1 - (after.idle - before.idle) / elapsed, groups };
  };
}

/** "94 % (server 48 %, PostgreSQL 30 %, …)", the largest first, groups under 1 % left out. */
export function describeCpu(shares: CpuShares) {
  const percent = (share: number) => `${Math.round(share * 100)} %`;
  const groups = Object.entries(shares.groups)
    .filter(([, share]) => share >= 0.01)
    .sort(([, a], [, b]) => b - a)
    .map(([group, share]) => `${group} ${percent(share)}`);
  return `${percent(shares.busy)} (${groups.join(', ')})`;
}

/**
 * What Linux's scheduler says of a process's main thread (its event loop, for a Node server): ms on a
 * core, ms runnable but waiting for one, times it was put on one, and of those, how often it had given
 * the core up itself (blocked: for a server, waiting for a socket) and how often it was preempted.
 */
export interface SchedulerStats {
  runMs: number;
  waitMs: number;
  slices: number;
  voluntarySwitches: number;
  involuntarySwitches: number;
}

const switchesOf = (status: string, kind: 'voluntary' | 'nonvoluntary') =>
  Number(new RegExp(`^${kind}_ctxt_switches:\\s*(\\d+)`, 'm').exec(status)?.[1] ?? Number.NaN);

/** From /proc/PID/schedstat ("run ns, wait ns, slices") and the thread's own status; null where there is none (another system, or the process ended). */
export function schedulerStats(pid: number): SchedulerStats | null {
  const fields = read(`/proc/${pid}/schedstat`)?.trim().split(/\s+/).map(Number);
  // The main thread's status: /proc/PID/status sums the switches of every thread.
  const status = read(`/proc/${pid}/task/${pid}/status`);
  if (!fields || fields.length < 3 || !status) return null;
  const stats = {
    runMs: fields[0]! / 1e6,
    waitMs: fields[1]! / 1e6,
    slices: fields[2]!,
    voluntarySwitches: switchesOf(status, 'voluntary'),
    involuntarySwitches: switchesOf(status, 'nonvoluntary'),
  };
  return Object.values(stats).some(Number.isNaN) ? null : stats;
}

/**
 * The main threads of `pids` together, from now until the returned function is called (a step of
 * the mix, a round): each carries its own share of the calls. Null where the scheduler's counts
 * cannot be read; the function throws when a process ended meanwhile.
 */
export function watchScheduler(pids: number[]): (() => SchedulerStats) | null {
  const before = pids.map(schedulerStats);
  if (before.some((stats) => stats === null)) return null;
  return () =>
    pids.reduce(
      (sum, pid, i) => {
        const now = schedulerStats(pid);
        if (!now) throw new Error(`the process ${pid} ended`);
        for (const key of Object.keys(sum) as (keyof SchedulerStats)[]) sum[key] += now[key] - before[i]![key];
        return sum;
      },
      { runMs: 0, waitMs: 0, slices: 0, voluntarySwitches: 0, involuntarySwitches: 0 },
    );
}

/** The event loops' scheduling a call: ms on a core and waiting for one, times woken and preempted. */
export interface LoopsACall {
  runMs: number;
  waitMs: number;
  woken: number;
  preempted: number;
}

export const loopsACall = (stats: SchedulerStats, calls: number): LoopsACall => ({
  runMs: stats.runMs / calls,
  waitMs: stats.waitMs / calls,
  woken: stats.voluntarySwitches / calls,
  preempted: stats.involuntarySwitches / calls,
});

/** "the servers' loops a call: 0.74 ms on a core, 0.34 ms waiting for one, woken 1.13 and preempted 0.67 times". */
export const describeLoops = (loops: LoopsACall, servers: number) =>
  `the server${servers > 1 ? "s'" : "'s"} loop${servers > 1 ? 's' : ''} a call: ${loops.runMs.toFixed(2)} ms on a core, ` +
  `${loops.waitMs.toFixed(2)} ms waiting for one, woken ${loops.woken.toFixed(2)} and preempted ${loops.preempted.toFixed(2)} times`;

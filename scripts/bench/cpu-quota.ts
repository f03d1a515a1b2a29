// An instance's own share of the cores, as a container's `cpus` limit gives it: a CFS quota in the
// kernel's cpu cgroup (v2's cpu.max, or v1's cpu.cfs_quota_us). On the bench's machine every process
// shares the same two cores, so no instance is ever the limit and a second one adds no capacity
// (docs/performance.md). Holding each instance to the same share is the nearest this machine comes
// to instances on machines of their own; docs/performance.md says what it showed.
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The quota's period. Docker and Kubernetes use 100 ms, in which an instance that spent its quota
 * early waits out the rest: at a quarter of a core, 75 ms with no thread running, most of the
 * mix's p99 budget. 10 ms keeps each such wait shorter than a request; even so, stalls decided the
 * capped runs' verdicts (docs/performance.md).
 */
const PERIOD_US = 10_000;

export interface CpuQuota {
  /** Moves a process, with all its threads, into the quota. */
  add(pid: number): void;
  /** The periods in which the quota ran out, and how long its processes were held, since it began. */
  throttled(): { periods: number; ms: number };
  /** Deletes the group, moving any process still in it back to the group this one was made in. */
  remove(): void;
}

/** The writable cpu controller's folder: cgroup v2's unified tree, or v1's cpu hierarchy. Null when there is none. */
function cpuController(root = '/sys/fs/cgroup'): { version: 1 | 2; folder: string } | null {
  const unified = path.join(root, 'cgroup.controllers');
  if (existsSync(unified) && readFileSync(unified, 'utf8').split(/\s+/).includes('cpu')) return { version: 2, folder: root };
  for (const name of ['cpu', 'cpu,cpuacct']) {
    const folder = path.join(root, name);
    if (existsSync(path.join(folder, 'cpu.cfs_quota_us'))) return { version: 1, folder };
  }
  return null;
}

/**
 * A group whose processes together run at most `cpus` cores (0.25: a quarter of one), or null where
 * the machine offers no cpu cgroup this process may create (not root, or a container without one):
 * the caller says the capped measurement was not made, rather than measuring without the cap.
 */
export function cpuQuota(name: string, cpus: number): CpuQuota | null {
  // The kernel's least quota is 1 ms: a tenth of a core in the period below.
  if (!(cpus >= 0.1)) throw new Error(`a CPU quota is a share of the cores of at least 0.1, not ${cpus}`);
  const controller = cpuController();
  if (!controller) return null;
  const folder = path.join(controller.folder, name);
  const quotaUs = Math.round(cpus * PERIOD_US);
  let made = false;
  try {
    if (controller.version === 2) {
      // A child's cpu.max exists only once the parent hands the controller down to its children.
      writeFileSync(path.join(controller.folder, 'cgroup.subtree_control'), '+cpu');
      mkdirSync(folder);
      made = true;
      writeFileSync(path.join(folder, 'cpu.max'), `${quotaUs} ${PERIOD_US}`);
    } else {
      mkdirSync(folder);
      made = true;
      writeFileSync(path.join(folder, 'cpu.cfs_period_us'), String(PERIOD_US));
      writeFileSync(path.join(folder, 'cpu.cfs_quota_us'), String(quotaUs));
    }
  } catch {
    // Not root (EACCES, EPERM), a read-only tree (EROFS), or a v2 group that holds processes and so
    // may not hand its controllers down (EBUSY): no quota can be made here.
    if (made) rmdirSync(folder); // made by this process a moment ago, and empty
    return null;
  }
  const stat = () =>
    Object.fromEntries(
      readFileSync(path.join(folder, 'cpu.stat'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => line.split(' ') as [string, string])
        .map(([key, value]) => [key, Number(value)]),
    );
  let removed = false;
  const remove = () => {
    if (removed) return;
    removed = true;
    // A group with a process in it cannot be deleted: a bench that stops half-way leaves its servers
    // exiting after it, so they go back to the parent's group (with no quota) first.
    try {
      for (const pid of readFileSync(path.join(folder, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean)) {
        try {
          writeFileSync(path.join(controller.folder, 'cgroup.procs'), pid);
        } catch {
          // it ended meanwhile
        }
      }
      rmdirSync(folder);
    } catch (error) {
      // Left behind, empty or nearly: harmless, and no reason to lose a run's results over it.
      console.warn(`the CPU quota ${folder} was not deleted: ${(error as Error).message}`);
    }
  };
  // Not left behind in the machine's cgroup tree when the bench fails or exits early (a signal that
  // ends the process without its exit event still leaves it, empty once its processes have ended).
  process.once('exit', remove);
  return {
    add(pid) {
      writeFileSync(path.join(folder, 'cgroup.procs'), String(pid));
    },
    throttled() {
      // The group was made above, so its counters count from its start. v2 counts the time held in
      // microseconds, v1 in nanoseconds.
      const now = stat();
      const heldMs = controller.version === 2 ? (now.throttled_usec ?? 0) / 1000 : (now.throttled_time ?? 0) / 1e6;
      return { periods: now.nr_throttled ?? 0, ms: heldMs };
    },
    remove() {
      process.off('exit', remove);
      remove();
    },
  };
}

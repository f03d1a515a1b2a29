// The production start's own answer to SIGTERM and SIGINT, until the server takes them over
// (api/src/server.ts). As PID 1 in a container with no init (Kubernetes gives none), Node ignores a
// signal it has no handler for, so a stop during the start (a replica waiting its turn, the seed) would
// wait for the SIGKILL: it ends the start instead. Not in the middle of a migration: its script would be
// undone, but the engine records it as started first, and a record left unfinished refuses every later
// start until someone marks it; the stop then waits for the work `uninterrupted` runs (each attempt of
// the migrations, not the pauses between them).

const EXIT_CODES: Record<string, number> = { SIGINT: 130, SIGTERM: 143 };

export function startSignals(exit: (code: number) => void = (code) => process.exit(code), log: (line: string) => void = console.error) {
  let holding = 0;
  let pending: NodeJS.Signals | null = null;
  const stop = (signal: NodeJS.Signals) => {
    log(`${signal} while starting: stopped before serving`);
    exit(EXIT_CODES[signal] ?? 1);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (holding === 0) return stop(signal);
    pending = signal;
    log(`${signal} while migrating: stopping once the migration in progress is done`);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  return {
    /** Runs `work` to its end whatever signal comes meanwhile; the stop follows it. */
    async uninterrupted<T>(work: () => Promise<T>): Promise<T> {
      holding++;
      try {
        return await work();
      } finally {
        holding--;
        if (holding === 0 && pending) stop(pending);
      }
    },
    /** The server answers the signals from here on. */
    release() {
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
    },
  };
}

// The Firebase Auth emulator (from firebase-tools), started on free ports so several can coexist.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './database.ts';
import { rootDir } from './schema-engine.ts';

export const FIREBASE_PROJECT_ID = 'demo-bookshop';

export interface RunningEmulator {
  host: string;
  stop(): Promise<void>;
  /** What the emulator's CLI has written so far (whether it imported and exported its accounts, say). */
  log(): string;
}

export interface EmulatorOptions {
  /** Free unless given. */
  port?: number;
  /**
   * Where the accounts are kept between runs (`npm start`: `.data/identity`): read at the start and
   * written at a stop. Unset, each run starts empty (the tests). Without it the shop's database kept
   * its clients while the provider forgot them, and their "Forgot password?" sent nothing.
   */
  keepAccountsIn?: string;
}

/** How long a stop waits for the emulator to write its accounts and end, before it is killed. */
const STOP_WAIT_MS = 15_000;

export async function startIdentityEmulator({ port, keepAccountsIn }: EmulatorOptions = {}): Promise<RunningEmulator> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bookshop-auth-'));
  const [auth, hub, logging] = [port ?? (await freePort()), await freePort(), await freePort()];
  const configPath = path.join(dir, 'firebase.json');
  await writeFile(
    configPath,
    JSON.stringify({
      emulators: {
        auth: { host: '127.0.0.1', port: auth },
        hub: { host: '127.0.0.1', port: hub },
        logging: { host: '127.0.0.1', port: logging },
        ui: { enabled: false },
        singleProjectMode: true,
      },
    }),
  );
  const child: ChildProcess = spawn(
    path.join(rootDir, 'node_modules/.bin/firebase'),
    [
      'emulators:start',
      ...['--only', 'auth', '--project', FIREBASE_PROJECT_ID, '--config', configPath],
      // A folder not there yet, or empty, is a start with no account (firebase-tools skips the import).
      ...(keepAccountsIn ? ['--import', keepAccountsIn, '--export-on-exit', keepAccountsIn] : []),
    ],
    {
      cwd: dir,
      // TMPDIR its own: the CLI finds its emulators through a file named after the project in the
      // temporary folder (hub-demo-bookshop.json), so with a shared one the export at a stop asked
      // whichever emulator of the project started last (the tests run several) for its accounts.
      env: { ...process.env, TMPDIR: dir, NO_UPDATE_NOTIFIER: '1', FIREBASE_CLI_DISABLE_UPDATE_CHECK: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, so stopping it reaches every process the CLI started.
      detached: true,
    },
  );
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      /* already gone */
    }
  };
  // Whatever ends this process (a crash included), the emulator does not outlive it: killed at once,
  // or, when it keeps accounts, asked to stop, which it does once it has written them.
  const stopOnExit = () => signalGroup(keepAccountsIn ? 'SIGINT' : 'SIGKILL');
  process.once('exit', stopOnExit);
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const host = `127.0.0.1:${auth}`;
  const deadline = Date.now() + 90_000;
  while (true) {
    if (child.exitCode !== null) throw new Error(`The identity emulator exited:\n${output}`);
    const ready = await fetch(`http://${host}/`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      signalGroup('SIGKILL');
      throw new Error(`The identity emulator did not start within 90 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  return {
    host,
    log: () => output,
    stop: async () => {
      // From here the stop is under way: a signal more at this process's exit would tell the emulator
      // to end at once, cutting its export short (firebase-tools takes a second signal so).
      process.off('exit', stopOnExit);
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        signalGroup('SIGINT');
        await Promise.race([exited, new Promise((r) => setTimeout(r, STOP_WAIT_MS))]);
      }
      signalGroup('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    },
  };
}

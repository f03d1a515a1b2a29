// `npm start` keeps the identity emulator's accounts in .data/identity: a client who signed up is still
// known to the provider after a restart (their "Forgot password?" needs it), as the shop's database
// still knows them. The tests' emulators keep nothing.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { type RunningEmulator, startIdentityEmulator } from './lib/identity-emulator.ts';

let folder: string;
const running: RunningEmulator[] = [];
beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'identity-kept-'));
});
afterAll(async () => {
  for (const emulator of running) await emulator.stop();
  await rm(folder, { recursive: true, force: true });
});

async function start(keepAccountsIn?: string) {
  const emulator = await startIdentityEmulator({ keepAccountsIn });
  running.push(emulator);
  return emulator;
}

/** The provider's REST call, as the browser's SDK makes it; its `error.message` when it refuses. */
async function provider(emulator: RunningEmulator, call: 'signUp' | 'signInWithPassword', email: string) {
  const response = await fetch(`http://${emulator.host}/identitytoolkit.googleapis.com/v1/accounts:${call}?key=any`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'Reader123!', returnSecureToken: true }),
  });
  const body = (await response.json()) as { email?: string; error?: { message: string } };
  return body.error?.message ?? body.email;
}

it('an account made before a stop signs in after a start on the same folder, not on a fresh one', { timeout: 120_000 }, async () => {
  const first = await start(path.join(folder, 'accounts'));
  expect(await provider(first, 'signUp', 'kept@example.com')).toBe('kept@example.com');
  await first.stop();

  const again = await start(path.join(folder, 'accounts'));
  // Failing, it says what both runs of the CLI wrote (seen once in a loaded CI run: the account not found).
  const logs = `first run:\n${first.log()}\nsecond run:\n${again.log()}`;
  expect(await provider(again, 'signInWithPassword', 'kept@example.com'), logs).toBe('kept@example.com');
  await again.stop();

  const fresh = await start();
  expect(await provider(fresh, 'signInWithPassword', 'kept@example.com')).toBe('EMAIL_NOT_FOUND');
});

/** The exit code of the child standing in for a crashed `npm start`. */
const CRASHED = 70;

it('keeps the accounts when the process that started it ends without stopping it (a crash): told at exit, it writes them and ends', {
  timeout: 120_000,
}, async () => {
  const kept = path.join(folder, 'after-a-crash');
  const script = path.join(folder, 'crash.mts');
  await writeFile(
    script,
    `import { startIdentityEmulator } from ${JSON.stringify(path.resolve(import.meta.dirname, 'lib/identity-emulator.ts'))};
     const emulator = await startIdentityEmulator({ keepAccountsIn: ${JSON.stringify(kept)} });
     const made = await fetch('http://' + emulator.host + '/identitytoolkit.googleapis.com/v1/accounts:signUp?key=any', {
       method: 'POST', headers: { 'content-type': 'application/json' },
       body: JSON.stringify({ email: 'crashed@example.com', password: 'Reader123!', returnSecureToken: true }),
     });
     if (!made.ok) throw new Error('no account made: ' + made.status);
     process.exit(CRASHED);`.replace('CRASHED', String(CRASHED)),
  );
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: path.resolve(import.meta.dirname, '..'),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr?.on('data', (d) => (errors += d));
  // Its own code, so that a child that failed before the account was made (an emulator that did not start) says so here.
  expect(await new Promise((resolve) => child.once('exit', resolve)), errors).toBe(CRASHED);
  await vi.waitFor(
    async () => expect(await readFile(path.join(kept, 'auth_export/accounts.json'), 'utf8')).toContain('crashed@example.com'),
    {
      timeout: 30_000,
      interval: 250,
    },
  );
  const again = await start(kept);
  expect(await provider(again, 'signInWithPassword', 'crashed@example.com')).toBe('crashed@example.com');
});

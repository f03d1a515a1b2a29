// `npm start` as root from a checkout that the embedded PostgreSQL's user cannot enter (such as one
// under a 0700 /root) stops with one message naming the cause and the fixes, not "undefined" and a
// stack trace.
import { spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedPostgresAccessProblem } from './lib/database.ts';

const root = path.resolve(import.meta.dirname, '..');
let base: string;
beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'bookshop-access-'));
  await mkdir(path.join(base, 'closed/checkout'), { recursive: true });
  await chmod(path.join(base, 'closed'), 0o700);
  await mkdir(path.join(base, 'open/checkout'), { recursive: true });
  await chmod(path.join(base, 'open'), 0o755);
  await chmod(base, 0o755);
});
afterAll(() => rm(base, { recursive: true, force: true }));

describe('the embedded PostgreSQL started by root', () => {
  it('names the folder its user cannot enter, and the fixes', async () => {
    const message = await embeddedPostgresAccessProblem(path.join(base, 'closed/checkout/.data/postgres'), true);
    expect(message).toContain(`cannot enter ${path.join(base, 'closed')} (mode 0700)`);
    for (const fix of ['as a regular user', 'move the checkout', `chmod o+x ${path.join(base, 'closed')}`, 'DATABASE_URL']) {
      expect(message).toContain(fix);
    }
    expect(await embeddedPostgresAccessProblem(path.join(base, 'open/checkout/.data/postgres'), true)).toBeNull();
    // Not root: PostgreSQL runs as the user who started it, who can enter the checkout.
    expect(await embeddedPostgresAccessProblem(path.join(base, 'closed/checkout/.data/postgres'), false)).toBeNull();
  });

  it.runIf(process.getuid?.() === 0)('stops the start with that one message (no "undefined", no stack trace)', async () => {
    // startThrowawayCluster keeps its data under the temporary folder: point it into the closed one.
    const script = path.join(base, 'open/start.mts');
    await writeFile(
      script,
      `import { startThrowawayCluster } from ${JSON.stringify(path.join(root, 'scripts/lib/database.ts'))};
       try { await (await startThrowawayCluster()).stop(); } catch (error) { console.error(error instanceof Error ? error.message : error); process.exit(1); }`,
    );
    const run = spawnSync(path.join(root, 'node_modules/.bin/tsx'), [script], {
      cwd: root,
      env: { ...process.env, TMPDIR: path.join(base, 'closed') },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Cannot start the embedded PostgreSQL: run as root, it runs as the user "postgres", which cannot enter /);
    expect(run.stderr).not.toMatch(/undefined|\n\s+at /);
  });
});

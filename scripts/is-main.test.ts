// A command that is also a library runs when asked, wherever its checkout lies.
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { isMain } from './lib/is-main.ts';

const dir = await mkdtemp(path.join(tmpdir(), 'a checkout with spaces-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

it('knows the script it is asked to run through a space in its path or a symlink to its folder, and no other', async () => {
  const script = path.join(dir, 'seed.ts');
  await writeFile(script, '');
  const linked = path.join(dir, 'linked');
  await symlink(dir, linked);
  // What node gives the module: the real file's URL, percent-encoded.
  const moduleUrl = pathToFileURL(script).href;
  expect(moduleUrl).toContain('%20');
  expect(isMain(moduleUrl, script)).toBe(true);
  expect(isMain(moduleUrl, path.join(linked, 'seed.ts'))).toBe(true);
  expect(isMain(moduleUrl, path.join(dir, 'other.ts'))).toBe(false);
  expect(isMain(moduleUrl, undefined)).toBe(false);
});

// How `npm test` finds a Chromium for the browser tests, and what it says when there is none.
import { copyFileSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium, noBrowserMessage } from './lib/browser.ts';

let dir: string;
let fake: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'bookshop-browser-'));
  fake = path.join(dir, 'chromium');
  await writeFile(fake, '#!/bin/sh\n');
  await chmod(fake, 0o755);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const missing = () => path.join(dir, 'nowhere', 'chrome');
const noInstall = () => false;
const quiet = () => {};

describe('finding Chromium', () => {
  it('takes CHROMIUM_PATH first, then the system package, then Playwright’s cache', async () => {
    expect(
      await findChromium({ env: { CHROMIUM_PATH: fake }, candidates: [], playwrightPath: async () => missing(), install: noInstall }),
    ).toBe(fake);
    expect(
      await findChromium({
        env: { CHROMIUM_PATH: missing() },
        candidates: [missing(), fake],
        playwrightPath: async () => missing(),
        install: noInstall,
      }),
    ).toBe(fake);
    expect(await findChromium({ env: {}, candidates: [missing()], playwrightPath: async () => fake, install: noInstall })).toBe(fake);
  });

  it('tries `playwright install chromium` when there is none, and uses what it installed', async () => {
    const cached = path.join(dir, 'cache-chrome');
    const installed = await findChromium({
      env: {},
      candidates: [],
      playwrightPath: async () => cached,
      install: () => {
        copyFileSync(fake, cached);
        return true;
      },
      log: quiet,
    });
    expect(installed).toBe(cached);
  });

  it('gives up with null when the install fails too; the message says how to get a browser', async () => {
    const logged: string[] = [];
    expect(
      await findChromium({
        env: {},
        candidates: [],
        playwrightPath: async () => missing(),
        install: noInstall,
        log: (m) => logged.push(m),
      }),
    ).toBeNull();
    expect(logged.join()).toMatch(/playwright install chromium/);
    const message = noBrowserMessage({ CHROMIUM_PATH: '/opt/none' });
    expect(message).toMatch(/^No Chromium for the browser tests, so nothing was run\./);
    for (const way of [
      'apt-get install chromium',
      'npx playwright install chromium',
      'playwright install-deps chromium',
      'CHROMIUM_PATH',
      '/opt/none',
    ])
      expect(message).toContain(way);
  });

  it('npm test and test:e2e look for it before running anything', async () => {
    for (const script of ['scripts/test.ts', 'scripts/e2e.ts']) {
      const source = await readFile(path.join(import.meta.dirname, '..', script), 'utf8');
      const found = source.indexOf('await findChromium()');
      expect(found, script).toBeGreaterThan(0);
      expect(source.indexOf('process.exit(1)', found), script).toBeGreaterThan(found);
      for (const firstWork of ['await run(', 'ensureWebBuild(']) {
        const at = source.indexOf(firstWork);
        if (at >= 0) expect(at, `${script}: ${firstWork}`).toBeGreaterThan(found);
      }
    }
  });
});

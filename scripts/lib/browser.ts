// The browser tests need a Chromium. Looked for, in order: CHROMIUM_PATH, the system's package
// (Debian's chromium and its usual names), and Playwright's own download in its cache. When none is
// there, `playwright install chromium` is tried (it needs the network); if that fails too, the
// caller stops before running anything, with the message below.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

export const SYSTEM_CHROMIUMS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome-stable',
  '/usr/bin/google-chrome',
];

const executable = (file: string) => {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** Where Playwright keeps the Chromium its version drives (in its cache, whether there or not). */
export async function playwrightChromium(): Promise<string> {
  const { chromium } = await import('playwright-core');
  return chromium.executablePath();
}

/** Downloads Playwright's Chromium; false when that fails (no network, no space). */
export function installPlaywrightChromium(): boolean {
  const run = spawnSync(path.join(root, 'node_modules/.bin/playwright'), ['install', 'chromium'], { stdio: 'inherit', timeout: 300_000 });
  // Its shared libraries are the system's (`playwright install-deps`, as root): the message below says so.
  return run.status === 0;
}

export function noBrowserMessage(env: NodeJS.ProcessEnv = process.env): string {
  return [
    'No Chromium for the browser tests, so nothing was run.',
    `Looked at ${env.CHROMIUM_PATH ? `CHROMIUM_PATH (${env.CHROMIUM_PATH}), ` : 'CHROMIUM_PATH (not set), '}${SYSTEM_CHROMIUMS.join(', ')} and Playwright's cache; ` +
      '`playwright install chromium` could not download one (no network?).',
    'Get one, then run npm test again: `sudo apt-get install chromium` (Debian, Ubuntu), or `npx playwright install chromium` ' +
      'with the system libraries it needs (`sudo npx playwright install-deps chromium`), ' +
      'or set CHROMIUM_PATH to a Chromium or Chrome you have.',
  ].join('\n');
}

export interface FindChromiumOptions {
  env?: NodeJS.ProcessEnv;
  candidates?: string[];
  playwrightPath?: () => Promise<string>;
  install?: () => boolean;
  log?: (message: string) => void;
}

/** The Chromium to use, or null when there is none and none could be installed. */
export async function findChromium({
  env = process.env,
  candidates = SYSTEM_CHROMIUMS,
  playwrightPath = playwrightChromium,
  install = installPlaywrightChromium,
  log = console.log,
}: FindChromiumOptions = {}): Promise<string | null> {
  if (env.CHROMIUM_PATH && executable(env.CHROMIUM_PATH)) return env.CHROMIUM_PATH;
  const system = candidates.find(executable);
  if (system) return system;
  const cached = await playwrightPath();
  if (executable(cached)) return cached;
  log('No Chromium found: trying `playwright install chromium`');
  return install() && executable(cached) ? cached : null;
}

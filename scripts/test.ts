// `npm test`: the whole suite. Type checks, then vitest (API integration tests on a real PostgreSQL
// and the identity emulator, migration checks, web component tests), then Playwright in Chromium
// against the real app. Ends with one line: "tests: N passed, N failed".
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { findChromium, noBrowserMessage } from './lib/browser.ts';

const root = path.resolve(import.meta.dirname, '..');
const bin = (name: string) => path.join(root, 'node_modules/.bin', name);
const reports = await mkdtemp(path.join(os.tmpdir(), 'bookshop-test-'));

async function run(label: string, command: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  console.log(`\n\u001b[1m▸ ${label}\u001b[0m`);
  const child = spawn(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  const [code] = (await once(child, 'exit')) as [number | null];
  return code ?? 1;
}

// The browser tests need Chromium: without one, stop before anything runs, saying how to get one.
const chromium = await findChromium();
if (!chromium) {
  console.error(noBrowserMessage());
  process.exit(1);
}

const results: { step: string; code: number }[] = [];
for (const [label, project] of [
  ['type check: api', 'api'],
  ['type check: web', 'web'],
  ['type check: scripts, seed and e2e', 'tsconfig.scripts.json'],
] as const) {
  results.push({ step: label, code: await run(label, bin('tsc'), ['-p', project]) });
}
results.push({ step: 'lint', code: await run('lint and format check (biome)', bin('biome'), ['check', '.']) });

const vitestReport = path.join(reports, 'vitest.json');
results.push({
  step: 'vitest',
  code: await run('unit and integration tests (vitest)', bin('vitest'), [
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${vitestReport}`,
  ]),
});

const playwrightReport = path.join(reports, 'playwright.json');
results.push({
  step: 'e2e',
  code: await run('end-to-end tests (Playwright, Chromium)', bin('tsx'), ['scripts/e2e.ts', '--reporter=list,json'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport,
    CHROMIUM_PATH: chromium,
  }),
});

let passed = 0;
let failed = 0;
const vitest = JSON.parse(await readFile(vitestReport, 'utf8').catch(() => '{}')) as {
  numPassedTests?: number;
  numFailedTests?: number;
  testResults?: { name: string; assertionResults?: { status: string; fullName: string; failureMessages?: string[] }[] }[];
};
passed += vitest.numPassedTests ?? 0;
failed += vitest.numFailedTests ?? 0;
const playwright = JSON.parse(await readFile(playwrightReport, 'utf8').catch(() => '{}')) as {
  stats?: { expected?: number; unexpected?: number; flaky?: number };
  suites?: PlaywrightSuite[];
};
passed += (playwright.stats?.expected ?? 0) + (playwright.stats?.flaky ?? 0);
failed += playwright.stats?.unexpected ?? 0;

// The failed tests are named again at the end, on standard output: CI keeps only that stream's
// tail, and a count alone does not say which test to look at.
type PlaywrightSuite = { file?: string; specs?: { title: string; ok: boolean; line?: number }[]; suites?: PlaywrightSuite[] };
const failures: string[] = [];
for (const file of vitest.testResults ?? []) {
  for (const test of file.assertionResults ?? []) {
    if (test.status !== 'failed') continue;
    const reason = (test.failureMessages?.[0] ?? '').split('\n', 1).join('').slice(0, 300);
    failures.push(`${path.relative(root, file.name)} › ${test.fullName}\n    ${reason}`);
  }
}
const failedSpecs = (suite: PlaywrightSuite, file = suite.file ?? ''): string[] => [
  ...(suite.specs ?? []).filter((spec) => !spec.ok).map((spec) => `e2e/${file}:${spec.line ?? 0} › ${spec.title}`),
  ...(suite.suites ?? []).flatMap((inner) => failedSpecs(inner, inner.file ?? file)),
];
for (const suite of playwright.suites ?? []) failures.push(...failedSpecs(suite));
if (failures.length) console.log(`\nfailed:\n${failures.map((line) => `  ✘ ${line}`).join('\n')}`);

const broken = results.filter((r) => r.code !== 0);
// Standard output, not error: the CI log that is kept is the standard output's tail.
for (const r of broken) console.log(`✘ ${r.step} failed (exit ${r.code})`);
if (broken.length && failed === 0) failed = broken.length;
console.log(`\ntests: ${passed} passed, ${failed} failed`);
// A failed test fails the run even when its runner exited 0 (the last CI run saw vitest do so).
process.exit(broken.length || failed ? 1 : 0);

// Builds the web app when web/dist is missing or older than its sources.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { rootDir } from './schema-engine.ts';

export const webDist = path.join(rootDir, 'web/dist');

function newestMtime(target: string): number {
  if (!statSync(target).isDirectory()) return statSync(target).mtimeMs;
  return Math.max(0, ...readdirSync(target).map((entry) => newestMtime(path.join(target, entry))));
}

export function ensureWebBuild(log: (message: string) => void = console.log) {
  const index = path.join(webDist, 'index.html');
  // The shared rules are the web app's too (its forms' checks and messages).
  const sources = ['web/src', 'web/scripts', 'web/index.html', 'web/vite.config.ts', 'packages/rules/src'].map((p) =>
    path.join(rootDir, p),
  );
  if (existsSync(index) && Math.max(...sources.map(newestMtime)) <= statSync(index).mtimeMs) return;
  log('building the web app');
  const build = spawnSync('npm', ['run', 'build', '-w', 'web'], { cwd: rootDir, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('the web build failed');
}

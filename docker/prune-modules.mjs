// The Dockerfile's `modules` stage runs this after `npm ci --omit=dev --workspace api`: it keeps only
// the packages the running server can load, so the runtime image carries what it runs.
//
// npm installs more than that: @prisma/client names the Prisma CLI (and with it TypeScript, Prisma
// Studio, effect, ...) as an *optional* peer, and npm installs optional peers that the lockfile has,
// about 200 MB that the compiled server never imports. This walks the installed tree from the
// workspace by Node's own resolution, following dependencies, optional dependencies and required
// peers (never optional ones), and removes every installed package it does not reach; then files no
// process loads: type declarations, source maps, and Prisma's query compilers for other databases.
//
// Usage: node prune-modules.mjs <install root> <workspace folder>
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

const [root = '.', workspace = 'api'] = process.argv.slice(2);
/**
 * Listed in the API's dependencies but used only outside the image: tsx (the image runs plain `node`),
 * pino-pretty (the log's look in a developer's terminal, never under NODE_ENV=production).
 */
const NOT_AT_RUNTIME = new Set(['tsx', 'pino-pretty']);
/** Prisma's client ships a query compiler for every database; the shop runs on PostgreSQL. */
const OTHER_DATABASES = /\.(mysql|sqlite|sqlserver|cockroachdb)\./;

// npm's record of what it installed: location -> { dependencies, link, resolved, ... }.
const installed = JSON.parse(readFileSync(path.join(root, 'node_modules/.package-lock.json'), 'utf8')).packages;

/** Node's lookup: `name` from the package at `from`, in its node_modules, then each parent's. */
function resolve(from, name) {
  for (let dir = from; ; ) {
    const candidate = `${dir ? `${dir}/` : ''}node_modules/${name}`;
    if (installed[candidate]) return candidate;
    if (!dir) return undefined;
    const up = dir.lastIndexOf('/node_modules/');
    dir = up === -1 ? '' : dir.slice(0, up);
  }
}

const reached = new Set();
const pending = [workspace];
while (pending.length) {
  const location = pending.pop();
  if (reached.has(location)) continue;
  reached.add(location);
  const entry = installed[location] ?? {};
  if (entry.link) {
    pending.push(entry.resolved);
    continue;
  }
  const optionalPeers = entry.peerDependenciesMeta ?? {};
  const names = [
    ...Object.keys(entry.dependencies ?? {}),
    ...Object.keys(entry.optionalDependencies ?? {}),
    ...Object.keys(entry.peerDependencies ?? {}).filter((name) => !optionalPeers[name]?.optional),
  ];
  for (const name of names) {
    const target = NOT_AT_RUNTIME.has(name) ? undefined : resolve(location, name);
    if (target) pending.push(target);
  }
}

let removedPackages = 0;
for (const location of Object.keys(installed)) {
  const inModules = location.startsWith('node_modules/') || location.includes('/node_modules/');
  if (inModules && !reached.has(location)) {
    rmSync(path.join(root, location), { recursive: true, force: true });
    removedPackages++;
  }
}
rmSync(path.join(root, 'node_modules/.bin'), { recursive: true, force: true });
rmSync(path.join(root, 'node_modules/.package-lock.json'), { force: true });

let removedBytes = 0;
function prune(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const file = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) continue; // the workspaces' own links
    if (entry.isDirectory()) {
      if (entry.name === '@types') rmSync(file, { recursive: true, force: true });
      else prune(file);
    } else if (/\.(map|d\.ts|d\.mts|d\.cts)$/.test(entry.name) || (OTHER_DATABASES.test(entry.name) && file.includes('@prisma'))) {
      removedBytes += statSync(file).size;
      rmSync(file);
    }
  }
}
for (const modules of [path.join(root, 'node_modules'), path.join(root, workspace, 'node_modules')]) prune(modules);
console.log(
  `pruned ${removedPackages} packages the server never loads, and ${Math.round(removedBytes / 1e6)} MB of types, maps and other databases' compilers`,
);

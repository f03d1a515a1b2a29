// The Prisma client (api/src/generated/prisma), after every `npm install` and as the first step of
// `npm run generate` (whose second, `generate:openapi`, writes openapi.yaml and the web's typed client).
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const bin = (name: string) => path.join(root, 'node_modules/.bin', name);

function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// Generation itself is WebAssembly; the CLI only insists that a schema engine binary exists, and
// would download one (impossible offline). Any existing file satisfies the check.
run(bin('prisma'), ['generate', '--schema', 'prisma/schema.prisma'], {
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath,
  PRISMA_HIDE_UPDATE_MESSAGE: '1',
  CHECKPOINT_DISABLE: '1',
});

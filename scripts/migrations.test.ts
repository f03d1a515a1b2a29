import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { emptyTestDatabase } from './empty-test-database.ts';

const root = path.resolve(import.meta.dirname, '..');

describe('migrations', () => {
  it('prisma/migrations build exactly the schema of prisma/schema.prisma (npm run db:check)', async () => {
    const database = await emptyTestDatabase('drift');
    try {
      const run = spawnSync(path.join(root, 'node_modules/.bin/tsx'), ['scripts/migrate.ts', 'check'], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: database.url },
        encoding: 'utf8',
      });
      expect(run.stderr + run.stdout).toContain('agree');
      expect(run.status).toBe(0);
    } finally {
      await database.drop();
    }
  });
});

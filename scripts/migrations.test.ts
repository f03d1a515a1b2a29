import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');

describe('migrations', () => {
  it('prisma/migrations build exactly the schema of prisma/schema.prisma (npm run db:check)', async () => {
    const base = inject('pgBaseUrl');
    const name = `drift_${randomUUID().replaceAll('-', '')}`;
    const admin = new pg.Client({ connectionString: `${base}/postgres` });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    try {
      const run = spawnSync(path.join(root, 'node_modules/.bin/tsx'), ['scripts/migrate.ts', 'check'], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: `${base}/${name}` },
        encoding: 'utf8',
      });
      expect(run.stderr + run.stdout).toContain('agree');
      expect(run.status).toBe(0);
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});

import { spawnSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { emptyTestDatabase } from './empty-test-database.ts';
import { applyMigrations, MigrationLockError, migrationsDir } from './lib/schema-engine.ts';

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

  it('a migration queued behind a long transaction gives way to the shop, is undone whole, and is applied once the transaction ends', async () => {
    const database = await emptyTestDatabase('lock_wait');
    const dir = await mkdtemp(path.join(tmpdir(), 'migrations-'));
    const connect = async () => {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      return client;
    };
    const longTransaction = await connect();
    const shopper = await connect();
    try {
      await applyMigrations(database.url);
      // The next deploy's migration: a table of its own, then a change to a table the shop reads.
      const probe = '99990101000000_lock_probe';
      await cp(migrationsDir, dir, { recursive: true });
      await mkdir(path.join(dir, probe));
      await writeFile(
        path.join(dir, probe, 'migration.sql'),
        'CREATE TABLE lock_probe (id int);\nALTER TABLE authors ADD COLUMN lock_probe int;\n',
      );
      await longTransaction.query('BEGIN');
      await longTransaction.query('SELECT 1 FROM authors LIMIT 1');

      // While the migration waits for authors' lock, a shopper's read of authors queues behind it:
      // it is answered when the migration gives way, with the long transaction still open.
      const waits: string[] = [];
      const givenUp = applyMigrations(database.url, {
        migrationsDir: dir,
        lockWait: { timeoutMs: 300, attempts: 2, pauseMs: 50 },
        onLockWait: (line) => waits.push(line),
      });
      givenUp.catch(() => {}); // awaited below; a failed assertion before must not leave it unhandled
      await new Promise((resolve) => setTimeout(resolve, 100));
      const read = await shopper.query('SELECT count(*)::int AS n FROM authors');
      expect(read.rows).toEqual([{ n: 0 }]);
      await expect(givenUp).rejects.toThrow(MigrationLockError);
      await expect(givenUp).rejects.toMatchObject({ migrationName: probe });
      expect(waits).toHaveLength(1);
      expect(waits[0]).toContain(`migration ${probe} waited 300 ms for a lock (attempt 1 of 2)`);
      // Nothing of it was applied, and each attempt is recorded rolled back: the next start is not refused.
      const state = await shopper.query(
        `SELECT to_regclass('lock_probe') IS NULL AS "noTable",
                NOT EXISTS (SELECT FROM information_schema.columns WHERE table_name = 'authors' AND column_name = 'lock_probe') AS "noColumn",
                array_agg(rolled_back_at IS NOT NULL) AS "rolledBack"
           FROM _prisma_migrations WHERE migration_name = $1`,
        [probe],
      );
      expect(state.rows[0]).toEqual({ noTable: true, noColumn: true, rolledBack: [true, true] });

      // Tried again while the transaction is still open; it ends after the first wait.
      const applied = await applyMigrations(database.url, {
        migrationsDir: dir,
        lockWait: { timeoutMs: 300, attempts: 20, pauseMs: 50 },
        onLockWait: () => void longTransaction.query('COMMIT'),
      });
      expect(applied).toEqual([probe]);
      expect((await shopper.query("SELECT to_regclass('lock_probe') IS NOT NULL AS made")).rows[0].made).toBe(true);
    } finally {
      await longTransaction.end();
      await shopper.end();
      await rm(dir, { recursive: true, force: true });
      await database.drop();
    }
  });
});

import { spawnSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { emptyTestDatabase } from './empty-test-database.ts';
import {
  applyMigrations,
  diffMigrationsToSchema,
  MigrationLockError,
  migrationsDir,
  onDatabase,
  transactionControl,
} from './lib/schema-engine.ts';

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
    const observer = await connect();
    /** Whether a statement like `like` waits for a lock, asked until it does or `meanwhile` settles. */
    const waitsForALock = async (like: string, meanwhile: Promise<unknown>) => {
      let settled = false;
      meanwhile.then(
        () => (settled = true),
        () => (settled = true),
      );
      while (!settled) {
        const { rowCount } = await observer.query(
          "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE $1",
          [like],
        );
        if (rowCount) return true;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return false;
    };
    const addMigration = async (name: string, sql: string) => {
      await mkdir(path.join(dir, name));
      await writeFile(path.join(dir, name, 'migration.sql'), sql);
    };
    const holdAuthors = async () => {
      await longTransaction.query('BEGIN');
      await longTransaction.query('SELECT 1 FROM authors LIMIT 1');
    };
    const advisoryLocks = async () => (await observer.query("SELECT 1 FROM pg_locks WHERE locktype = 'advisory'")).rowCount;
    try {
      await applyMigrations(database.url);
      expect(await advisoryLocks()).toBe(0);
      await cp(migrationsDir, dir, { recursive: true });
      // The next deploy's two migrations: a table of its own, then a change to a table the shop reads.
      await addMigration('99990101000000_lock_probe', 'CREATE TABLE lock_probe (id int);\n');
      await addMigration('99990101000001_lock_probe_authors', 'ALTER TABLE authors ADD COLUMN lock_probe int;\n');

      // The first is applied, the second waits, gives way, and is applied once the transaction ends (after the first wait).
      await holdAuthors();
      const applied = await applyMigrations(database.url, {
        migrationsDir: dir,
        lockWait: { timeoutMs: 300, attempts: 20, pauseMs: 50 },
        onLockWait: () => void longTransaction.query('COMMIT'),
      });
      expect(applied).toEqual(['99990101000000_lock_probe', '99990101000001_lock_probe_authors']);
      expect(await advisoryLocks()).toBe(0);

      // A third, behind a transaction that does not end.
      const third = '99990101000002_lock_probe_again';
      await addMigration(third, 'CREATE TABLE lock_probe_again (id int);\nALTER TABLE authors DROP COLUMN lock_probe;\n');
      await holdAuthors();
      const waits: string[] = [];
      let attempts = 0;
      const givenUp = applyMigrations(database.url, {
        migrationsDir: dir,
        lockWait: { timeoutMs: 1500, attempts: 2, pauseMs: 50 },
        onLockWait: (line) => waits.push(line),
        // The start's own wrapper holds a stop off through each attempt: it sees both, and not the pause.
        attempt: (work) => {
          attempts++;
          return work();
        },
      });
      givenUp.catch(() => {}); // awaited below; a failed assertion before must not leave it unhandled
      // While it waits, a shopper's read of authors queues behind it, and is answered when it gives way,
      // the long transaction still open.
      expect(await waitsForALock('%ALTER TABLE authors%', givenUp)).toBe(true);
      const read = shopper.query('SELECT count(*)::int AS n FROM authors');
      expect(await waitsForALock('SELECT count(*)::int AS n FROM authors', read)).toBe(true);
      expect((await read).rows).toEqual([{ n: 0 }]);
      await expect(givenUp).rejects.toThrow(MigrationLockError);
      await expect(givenUp).rejects.toMatchObject({ migrationName: third });
      expect(waits).toEqual([`migration ${third} waited 1500 ms for a lock (attempt 1 of 2): undone, trying again in 50 ms`]);
      expect(attempts).toBe(2);
      // Nothing of it was applied, and each attempt is recorded rolled back: the next start is not refused.
      const state = await shopper.query(
        `SELECT to_regclass('lock_probe_again') IS NULL AS "noTable",
                EXISTS (SELECT FROM information_schema.columns WHERE table_name = 'authors' AND column_name = 'lock_probe') AS "column",
                array_agg(rolled_back_at IS NOT NULL) AS "rolledBack"
           FROM _prisma_migrations WHERE migration_name = $1`,
        [third],
      );
      expect(state.rows[0]).toEqual({ noTable: true, column: true, rolledBack: [true, true] });
      expect(await advisoryLocks()).toBe(0);
      await longTransaction.query('COMMIT');
      expect(await applyMigrations(database.url, { migrationsDir: dir })).toEqual([third]);
    } finally {
      await Promise.all([longTransaction.end(), shopper.end(), observer.end()]);
      await rm(dir, { recursive: true, force: true });
      await database.drop();
    }
  });

  it("a connection string's own settings reach the schema engine (sslmode, options and the rest), as they reach the API's pool", async () => {
    const database = await emptyTestDatabase('url_settings');
    try {
      // Sessions that may write nothing: no migration is applied. Dropped, the settings would let them all be.
      await expect(applyMigrations(`${database.url}?options=-c%20default_transaction_read_only%3Don`)).rejects.toThrow(
        /read-only transaction/,
      );
      expect(await diffMigrationsToSchema(`${database.url}?sslmode=disable&application_name=bookshop-migrations`)).toBe('');
    } finally {
      await database.drop();
    }
    expect(onDatabase('postgres://shop:secret@db:5432/bookshop?sslmode=verify-full', 'shadow')).toBe(
      'postgres://shop:secret@db:5432/shadow?sslmode=verify-full',
    );
    expect(onDatabase('postgres://shop@/bookshop?host=/run/postgresql', 'shadow')).toBe('postgres://shop@/shadow?host=/run/postgresql');
  });

  it('refuses a migration that ends its own transaction or cannot run in one, before applying anything', async () => {
    expect(transactionControl('BEGIN;\nALTER TYPE "Role" RENAME TO "Role_old";\nCOMMIT;')).toBe('BEGIN');
    expect(transactionControl('CREATE INDEX CONCURRENTLY books_title ON books (title);')).toMatch(/CONCURRENTLY/);
    expect(transactionControl('end ;')).toBe('end');
    // What only looks like one: PL/pgSQL's BEGIN and END, CASE's END, a comment, a string.
    expect(
      transactionControl(
        'DO $$ BEGIN PERFORM 1; END $$;\nCREATE FUNCTION f() RETURNS int LANGUAGE plpgsql AS $body$ BEGIN RETURN 1; END $body$;\n' +
          "SELECT CASE WHEN true THEN 1 END; -- then COMMIT;\n/* ROLLBACK; */ SELECT 'don''t; COMMIT';",
      ),
    ).toBeUndefined();
    const dir = await mkdtemp(path.join(tmpdir(), 'migrations-'));
    try {
      await mkdir(path.join(dir, '20990101000000_enum_change'));
      await writeFile(path.join(dir, '20990101000000_enum_change', 'migration.sql'), 'BEGIN;\nCREATE TABLE never (id int);\nCOMMIT;\n');
      await expect(applyMigrations('postgres://nobody@127.0.0.1:1/none', { migrationsDir: dir })).rejects.toThrow(
        /Migration 20990101000000_enum_change has "BEGIN", which ends or cannot run in the one transaction/,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

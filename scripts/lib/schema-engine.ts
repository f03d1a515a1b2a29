// Prisma's own schema engine, in WebAssembly, so migrations run offline (the CLI downloads a native
// engine first, which a machine without internet cannot do). The files it reads and the
// `_prisma_migrations` table it writes are exactly those of `prisma migrate deploy`.
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PrismaPg } from '@prisma/adapter-pg';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import type { MigrationList, SchemaEngine } from '@prisma/schema-engine-wasm';
import * as bindings from '@prisma/schema-engine-wasm/schema_engine_bg';
import pg from 'pg';

const require = createRequire(import.meta.url);
export const rootDir = path.resolve(import.meta.dirname, '../..');
export const schemaPath = path.join(rootDir, 'prisma/schema.prisma');
export const migrationsDir = path.join(rootDir, 'prisma/migrations');

/**
 * The engine reads catalog columns of PostgreSQL's internal one-byte type "char" (OID 18, e.g.
 * pg_constraint.contype) and expects them typed as Character, which adapter-pg 7.10 cannot map: it
 * throws on OID 18. In this process only (the API never loads this file) pg reports such a column as
 * text with a marked name, and the adapter wrapper below unmarks it and types it Character.
 */
const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;
const CHAR_MARK = '\u0000char';
const COLUMN_TYPE_CHARACTER = 6; // ColumnTypeEnum.Character in @prisma/driver-adapter-utils
const markCharFields = (res: pg.QueryResult | undefined) => {
  for (const field of res?.fields ?? []) {
    if (field.dataTypeID === PG_CHAR_OID) {
      field.dataTypeID = PG_TEXT_OID;
      field.name += CHAR_MARK;
    }
  }
  return res;
};
const originalQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function queryMarkingCharColumns(this: pg.Client, ...args: unknown[]) {
  // pg-pool passes a callback; direct callers get a promise. Both are covered.
  const last = args.at(-1);
  if (typeof last === 'function') {
    args[args.length - 1] = (err: Error | null, res?: pg.QueryResult) => last(err, markCharFields(res));
  }
  const result = (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
  return result instanceof Promise ? result.then(markCharFields) : result;
} as typeof pg.Client.prototype.query;

interface RawResult {
  columnNames: string[];
  columnTypes: number[];
}
type Queryable = { queryRaw(q: unknown): Promise<RawResult>; startTransaction?(...a: unknown[]): Promise<Queryable> };

/** What the migration tooling asks of the engine's database work. */
interface EngineSession {
  /** How long a migration's script may wait for a lock (PostgreSQL's lock_timeout); unset, without end. */
  lockTimeoutMs?: number;
  /** Told of the error of a migration's script, as node-postgres gives it (the engine keeps only its text). */
  onScriptError?: (error: unknown) => void;
}

/**
 * Two shims over adapter-pg, for the migration tooling only: "char" catalog columns are typed as
 * Character (see CHAR_MARK), and a migration script runs whole. adapter-pg's executeScript splits
 * it on every ';', which breaks any function or trigger body; PostgreSQL's simple query protocol
 * runs a multi-statement script as it is.
 */
function typeCharColumns<T extends Queryable>(target: T, session: EngineSession = {}): T {
  return new Proxy(target, {
    get(obj, prop) {
      // adapter-pg keeps its pool (or connection) in a protected `client` field.
      const client = (obj as unknown as { client?: pg.Pool | pg.Client }).client;
      if (prop === 'executeScript' && client) {
        // SET LOCAL holds for the script's own transaction only (applyMigrations refuses a script that
        // ends it early): the engine's advisory lock, which makes migrators take turns, keeps its own wait.
        const bound = session.lockTimeoutMs === undefined ? '' : `SET LOCAL lock_timeout = ${Math.round(session.lockTimeoutMs)};\n`;
        return async (script: string) => {
          await client.query(bound + script).catch((error: unknown) => {
            session.onScriptError?.(error);
            throw error;
          });
        };
      }
      if (prop === 'queryRaw') {
        return async (query: unknown) => {
          const result = await obj.queryRaw(query);
          result.columnNames.forEach((name, i) => {
            if (name.endsWith(CHAR_MARK)) {
              result.columnNames[i] = name.slice(0, -CHAR_MARK.length);
              result.columnTypes[i] = COLUMN_TYPE_CHARACTER;
            }
          });
          return result;
        };
      }
      if (prop === 'startTransaction') {
        return async (...a: unknown[]) => typeCharColumns(await obj.startTransaction!(...a), session);
      }
      const value = Reflect.get(obj, prop);
      return typeof value === 'function' ? value.bind(obj) : value;
    },
  });
}

// The engine reports a Rust panic's message through this global before throwing.
let lastPanic = '';
(globalThis as Record<string, unknown>).PRISMA_WASM_PANIC_REGISTRY = {
  set_message: (message: string) => {
    lastPanic = message;
  },
};

// Kept on globalThis: the bindings module is shared by every copy of this file a process loads
// (test runners load one per project), and it must be wired to one WebAssembly instance only.
const shared = globalThis as typeof globalThis & { __bookshopWasmReady?: Promise<void>; __bookshopEngineQueue?: Promise<unknown> };

/** Node 20 cannot `import` a .wasm file, so the bindings are wired to the module by hand, once. */
function loadWasm(): Promise<void> {
  shared.__bookshopWasmReady ??= (async () => {
    // The package exports only its JS entry points; the .wasm sits beside them.
    const wasmPath = path.join(path.dirname(require.resolve('@prisma/schema-engine-wasm')), 'schema_engine_bg.wasm');
    const { instance } = await WebAssembly.instantiate(await readFile(wasmPath), {
      './schema_engine_bg.js': bindings as unknown as WebAssembly.ModuleImports,
    });
    bindings.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
  })();
  return shared.__bookshopWasmReady;
}

/**
 * The connection string with another database, every other setting in it kept (TLS, a socket host,
 * options): a string, not a URL object, since `postgres://user@/shop?host=/socket` is no WHATWG URL.
 */
export function onDatabase(connectionString: string, database: string): string {
  const parts = /^([a-z]+:\/\/[^/?#]*)(?:\/[^?#]*)?(.*)$/i.exec(connectionString);
  if (!parts) throw new Error('DATABASE_URL is not a postgres:// connection string');
  return `${parts[1]}/${encodeURIComponent(database)}${parts[2]}`;
}

/**
 * A throwaway shadow database for `diff`. adapter-pg's own drops the database before closing its
 * pool, which PostgreSQL refuses while those connections live; this one closes first.
 */
async function connectToShadowDb(connectionString: string) {
  const database = `prisma_shadow_${crypto.randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${database}"`);
  const adapter = await new PrismaPg({ connectionString: onDatabase(connectionString, database) }).connect();
  const dispose = adapter.dispose.bind(adapter);
  adapter.dispose = async () => {
    await dispose();
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.end();
  };
  return adapter;
}

// One WebAssembly instance serves the process, and it does not survive two engines at once.

export function withSchemaEngine<T>(
  connectionString: string,
  work: (engine: SchemaEngine, schema: string) => Promise<T>,
  session: EngineSession = {},
): Promise<T> {
  const run = (shared.__bookshopEngineQueue ?? Promise.resolve()).then(() => runSchemaEngine(connectionString, work, session));
  shared.__bookshopEngineQueue = run.catch(() => {});
  return run;
}

async function runSchemaEngine<T>(
  connectionString: string,
  work: (engine: SchemaEngine, schema: string) => Promise<T>,
  session: EngineSession,
): Promise<T> {
  await loadWasm();
  const schema = await readFile(schemaPath, 'utf8');
  const log = (message: string) => {
    if (process.env.DEBUG_SCHEMA_ENGINE) console.error(message);
  };
  // The whole connection string, as the API's pool takes it: its TLS settings (sslmode, a managed
  // database that requires TLS), a socket host and options reach the engine too.
  const pgFactory = new PrismaPg({ connectionString });
  // Ended when the engine is done: the engine takes a session advisory lock (migrators take turns)
  // and its pool would keep the connection that holds it, and with it the lock, until the pool's idle
  // timeout, making the process's next migration wait for it.
  const connections: { dispose(): Promise<void> }[] = [];
  const adapter = bindMigrationAwareSqlAdapterFactory({
    provider: pgFactory.provider,
    adapterName: pgFactory.adapterName,
    connect: async () => {
      const connection = await pgFactory.connect();
      connections.push(connection);
      return typeCharColumns(connection, session);
    },
    connectToShadowDb: async () => typeCharColumns(await connectToShadowDb(connectionString)),
  } as unknown as PrismaPg);
  let engine: SchemaEngine | undefined;
  try {
    engine = await (bindings.SchemaEngine as typeof SchemaEngine).new({ datamodels: [[schemaPath, schema]] }, log, adapter);
    return await work(engine, schema);
  } catch (error) {
    if (lastPanic) throw new Error(`schema engine panicked: ${lastPanic}`, { cause: error });
    throw error;
  } finally {
    engine?.free();
    // A pool's end waits for its connections in use: one the engine left in a transaction would hold
    // this (and every later engine run of the process) for ever, so the wait is bounded.
    const ended = Promise.allSettled(connections.map((connection) => connection.dispose()));
    await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, ENGINE_DISPOSE_WAIT_MS).unref())]);
  }
}

const ENGINE_DISPOSE_WAIT_MS = 5000;

export async function readMigrations(baseDir = migrationsDir): Promise<MigrationList> {
  const entries = await readdir(baseDir, { withFileTypes: true }).catch(() => []);
  const dirs = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const lockPath = path.join(baseDir, 'migration_lock.toml');
  return {
    baseDir,
    lockfile: { path: 'migration_lock.toml', content: await readFile(lockPath, 'utf8').catch(() => null) },
    shadowDbInitScript: '',
    migrationDirectories: await Promise.all(
      dirs.map(async (dir) => {
        const content = await readFile(path.join(baseDir, dir, 'migration.sql'), 'utf8').then(
          (ok) => ({ tag: 'ok' as const, value: ok }),
          (err: Error) => ({ tag: 'error' as const, value: err.message }),
        );
        return { path: dir, migrationFile: { path: 'migration.sql', content } };
      }),
    ),
  };
}

const noFilter = { externalTables: [], externalEnums: [] };

/**
 * How long a migration's statement waits for a table's lock, and how often it is tried. A migration
 * applied while the shop serves (a rolling deploy: serve.ts migrates at start) and queued behind a long
 * transaction on its table (a report, the catalog export, a psql session left open) would hold every
 * request on that table behind it until that transaction ends, since PostgreSQL queues later lockers
 * behind a waiting one. With the bound, requests wait at most that long; the migration, which each
 * runs in one transaction (its script is one multi-statement query), is undone whole and tried again.
 */
export const MIGRATION_LOCK_WAIT = { timeoutMs: 2000, attempts: 10, pauseMs: 3000 };

/** A migration that could not take its locks in any attempt: nothing of it was applied. */
export class MigrationLockError extends Error {
  constructor(
    readonly migrationName: string,
    wait: typeof MIGRATION_LOCK_WAIT,
  ) {
    super(
      `Migration ${migrationName} waited ${wait.attempts} times ${wait.timeoutMs} ms for a lock another transaction holds ` +
        '(a long report, the catalog export, a session left open), and nothing of it was applied. Start again once ' +
        "that transaction has ended (pg_stat_activity shows it: the oldest xact_start, often state 'idle in transaction').",
    );
  }
}

/** PostgreSQL's lock_not_available: a statement waited longer than lock_timeout. */
const LOCK_NOT_AVAILABLE = '55P03';

/** The names of the migrations applied so far ([] on a database never migrated). */
async function succeededMigrations(connectionString: string): Promise<Set<string>> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const exists = (await client.query("SELECT to_regclass('_prisma_migrations') IS NOT NULL AS exists")).rows[0]?.exists;
    if (!exists) return new Set();
    const { rows } = await client.query<{ migration_name: string }>(
      'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
    );
    return new Set(rows.map((r) => r.migration_name));
  } finally {
    await client.end();
  }
}

/** Whether the engine recorded this migration as failed and not yet resolved. */
async function recordedFailed(connectionString: string, migrationName: string): Promise<boolean> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const { rowCount } = await client.query(
      'SELECT FROM _prisma_migrations WHERE migration_name = $1 AND finished_at IS NULL AND rolled_back_at IS NULL',
      [migrationName],
    );
    return (rowCount ?? 0) > 0;
  } finally {
    await client.end();
  }
}

/**
 * A statement that cannot run inside the one transaction a migration's script is, or that ends it:
 * after a COMMIT (Prisma's own diff wraps an enum value's removal in BEGIN … COMMIT) the lock bound
 * is gone and what came before is kept, so a failure after it would be marked rolled back though
 * applied; CONCURRENTLY cannot run in a transaction at all. Read outside comments, quoted text and
 * function bodies; `END` alone is also PL/pgSQL's and CASE's, so only a statement that is `END` is one.
 */
export function transactionControl(script: string): string | undefined {
  // One pass, left to right, so that a quote in a comment or a comment's dashes in a string are taken for what they are in.
  const code = script.replace(/--[^\n]*|\/\*[\s\S]*?\*\/|\$([A-Za-z_]*)\$[\s\S]*?\$\1\$|'(?:[^']|'')*'|"(?:[^"]|"")*"/g, ' ');
  for (const statement of code.split(';').map((s) => s.trim().replace(/\s+/g, ' '))) {
    if (/^(BEGIN|COMMIT|ROLLBACK|END|ABORT|START TRANSACTION|SAVEPOINT|RELEASE|PREPARE TRANSACTION)\b/i.test(statement)) return statement;
    if (/\bCONCURRENTLY\b/i.test(statement)) return statement;
  }
  return undefined;
}

function refuseTransactionControl(migrationsList: MigrationList) {
  for (const { path: name, migrationFile } of migrationsList.migrationDirectories) {
    const found = migrationFile.content.tag === 'ok' ? transactionControl(migrationFile.content.value) : undefined;
    if (found) {
      throw new Error(
        `Migration ${name} has "${found.slice(0, 60)}", which ends or cannot run in the one transaction a migration is ` +
          '(scripts/lib/schema-engine.ts): split it, or apply that statement by hand outside the migrations.',
      );
    }
  }
}

export interface ApplyMigrationsOptions {
  /** Where the migrations are (tests give a copy with one of their own). */
  migrationsDir?: string;
  lockWait?: typeof MIGRATION_LOCK_WAIT;
  /** Told of each attempt that waited too long. */
  onLockWait?: (line: string) => void;
  /**
   * Runs each attempt (the engine applying what is pending, and marking rolled back one that waited
   * too long): the start holds a stop off through it (lib/start-signals.ts), not through the pauses.
   */
  attempt?: <T>(work: () => Promise<T>) => Promise<T>;
}

/**
 * Applies every pending migration; returns the names applied. A migration that waits longer than
 * `lockWait.timeoutMs` for a lock is undone by PostgreSQL, marked rolled back (true: its one
 * transaction left nothing) and tried again after a pause; after the last attempt, MigrationLockError.
 * Any other failure is left as the engine records it, for a person to look at (prisma migrate resolve).
 */
export async function applyMigrations(connectionString: string, options: ApplyMigrationsOptions = {}): Promise<string[]> {
  const {
    lockWait = MIGRATION_LOCK_WAIT,
    onLockWait = (line: string) => console.warn(line),
    attempt: runAttempt = (work) => work(),
  } = options;
  const migrationsList = await readMigrations(options.migrationsDir);
  refuseTransactionControl(migrationsList);
  const before = await succeededMigrations(connectionString);
  for (let attempt = 1; ; attempt++) {
    let waitedForALock = false;
    const waited = await runAttempt(() =>
      withSchemaEngine(
        connectionString,
        async (engine) => {
          try {
            await engine.applyMigrations({ migrationsList, filters: noFilter });
            return undefined;
          } catch (error) {
            if (!waitedForALock) throw error;
            // The one migration not applied first; the engine may have recorded it failed (then marked
            // rolled back, so that the next attempt is not refused) or, its record undone with it, not at all.
            const applied = await succeededMigrations(connectionString);
            const migrationName = migrationsList.migrationDirectories.find((m) => !applied.has(m.path))?.path;
            if (!migrationName) throw error;
            if (await recordedFailed(connectionString, migrationName)) await engine.markMigrationRolledBack({ migrationName });
            return migrationName;
          }
        },
        {
          lockTimeoutMs: lockWait.timeoutMs,
          onScriptError: (error) => {
            waitedForALock = (error as { code?: string }).code === LOCK_NOT_AVAILABLE;
          },
        },
      ),
    );
    if (waited === undefined) break;
    if (attempt >= lockWait.attempts) throw new MigrationLockError(waited, lockWait);
    onLockWait(
      `migration ${waited} waited ${lockWait.timeoutMs} ms for a lock (attempt ${attempt} of ${lockWait.attempts}): ` +
        `undone, trying again in ${lockWait.pauseMs} ms`,
    );
    await new Promise((resolve) => setTimeout(resolve, lockWait.pauseMs));
  }
  // Listed from the database, as the engine's own list leaves out those applied before an attempt failed.
  const after = await succeededMigrations(connectionString);
  return migrationsList.migrationDirectories.map((m) => m.path).filter((name) => after.has(name) && !before.has(name));
}

/** SQL that takes a database built by the migrations to what schema.prisma describes ('' when they agree). */
export async function diffMigrationsToSchema(connectionString: string): Promise<string> {
  const migrationsList = await readMigrations();
  return withSchemaEngine(connectionString, async (engine, schema) => {
    const result = await engine.diff({
      from: { tag: 'migrations', ...migrationsList },
      to: { tag: 'schemaDatamodel', files: [{ path: schemaPath, content: schema }] },
      script: true,
      exitCode: null,
      filters: noFilter,
    });
    const sql = (result.stdout ?? '').trim();
    return sql === '-- This is an empty migration.' ? '' : sql;
  });
}

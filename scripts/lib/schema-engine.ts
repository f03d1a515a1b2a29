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

/**
 * Two shims over adapter-pg, for the migration tooling only: "char" catalog columns are typed as
 * Character (see CHAR_MARK), and a migration script runs whole. adapter-pg's executeScript splits
 * it on every ';', which breaks any function or trigger body; PostgreSQL's simple query protocol
 * runs a multi-statement script as it is.
 */
function typeCharColumns<T extends Queryable>(target: T): T {
  return new Proxy(target, {
    get(obj, prop) {
      // adapter-pg keeps its pool (or connection) in a protected `client` field.
      const client = (obj as unknown as { client?: pg.Pool | pg.Client }).client;
      if (prop === 'executeScript' && client) {
        return async (script: string) => {
          await client.query(script);
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
        return async (...a: unknown[]) => typeCharColumns(await obj.startTransaction!(...a));
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

type PgConfig = { host: string; port: number; user: string; password: string; database: string };

/**
 * A throwaway shadow database for `diff`. adapter-pg's own drops the database before closing its
 * pool, which PostgreSQL refuses while those connections live; this one closes first.
 */
async function connectToShadowDb(config: PgConfig) {
  const database = `prisma_shadow_${crypto.randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client(config);
  await admin.connect();
  await admin.query(`CREATE DATABASE "${database}"`);
  const adapter = await new PrismaPg({ ...config, database }).connect();
  const dispose = adapter.dispose.bind(adapter);
  adapter.dispose = async () => {
    await dispose();
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.end();
  };
  return adapter;
}

// One WebAssembly instance serves the process, and it does not survive two engines at once.

export function withSchemaEngine<T>(connectionString: string, work: (engine: SchemaEngine, schema: string) => Promise<T>): Promise<T> {
  const run = (shared.__bookshopEngineQueue ?? Promise.resolve()).then(() => runSchemaEngine(connectionString, work));
  shared.__bookshopEngineQueue = run.catch(() => {});
  return run;
}

async function runSchemaEngine<T>(connectionString: string, work: (engine: SchemaEngine, schema: string) => Promise<T>): Promise<T> {
  await loadWasm();
  const schema = await readFile(schemaPath, 'utf8');
  const log = (message: string) => {
    if (process.env.DEBUG_SCHEMA_ENGINE) console.error(message);
  };
  // Explicit fields, not a connection string: the adapter derives its shadow database as
  // `{ ...config, database }`, and pg lets a connection string override `database`.
  const url = new URL(connectionString);
  const config: PgConfig = {
    host: url.hostname,
    port: Number(url.port || 5432),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    database: url.pathname.slice(1),
  };
  const pgFactory = new PrismaPg(config);
  const adapter = bindMigrationAwareSqlAdapterFactory({
    provider: pgFactory.provider,
    adapterName: pgFactory.adapterName,
    connect: async () => typeCharColumns(await pgFactory.connect()),
    connectToShadowDb: async () => typeCharColumns(await connectToShadowDb(config)),
  } as unknown as PrismaPg);
  const engine = await (bindings.SchemaEngine as typeof SchemaEngine).new({ datamodels: [[schemaPath, schema]] }, log, adapter);
  try {
    return await work(engine, schema);
  } catch (error) {
    if (lastPanic) throw new Error(`schema engine panicked: ${lastPanic}`, { cause: error });
    throw error;
  } finally {
    engine.free();
  }
}

export async function readMigrations(): Promise<MigrationList> {
  const entries = await readdir(migrationsDir, { withFileTypes: true }).catch(() => []);
  const dirs = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const lockPath = path.join(migrationsDir, 'migration_lock.toml');
  return {
    baseDir: migrationsDir,
    lockfile: { path: 'migration_lock.toml', content: await readFile(lockPath, 'utf8').catch(() => null) },
    shadowDbInitScript: '',
    migrationDirectories: await Promise.all(
      dirs.map(async (dir) => {
        const content = await readFile(path.join(migrationsDir, dir, 'migration.sql'), 'utf8').then(
          (ok) => ({ tag: 'ok' as const, value: ok }),
          (err: Error) => ({ tag: 'error' as const, value: err.message }),
        );
        return { path: dir, migrationFile: { path: 'migration.sql', content } };
      }),
    ),
  };
}

const noFilter = { externalTables: [], externalEnums: [] };

/** Applies every pending migration; returns the names applied. */
export async function applyMigrations(connectionString: string): Promise<string[]> {
  const migrationsList = await readMigrations();
  return withSchemaEngine(connectionString, async (engine) => {
    const out = await engine.applyMigrations({ migrationsList, filters: noFilter });
    return out.appliedMigrationNames;
  });
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

// The database: one explicit pg.Pool per process, handed to Prisma's pg adapter, with limits so that
// nothing waits forever (a pooled connection, a row lock, a statement) and an error listener on every
// connection so that a connection the server ends cannot crash the process. This plugin owns every
// handle (decision 14): Prisma, the audited client of the back-office, and the SQL reader and writer.
import crypto from 'node:crypto';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlDriverAdapterFactory, SqlQuery, Transaction } from '@prisma/driver-adapter-utils';
import type { FastifyBaseLogger } from 'fastify';
import fp from 'fastify-plugin';
import pg from 'pg';
import { type Config, ConfigError } from '../config.ts';
import { PrismaClient } from '../generated/prisma/client.ts';
import { answerWithin } from '../lib/answer-within.ts';
import { refuseIfSpent, takingEffect, type WriteBudget, writeBudgets, writesAlone } from '../lib/write-budget.ts';
import { auditedClient } from '../modules/security/audit.ts';

declare module 'fastify' {
  interface FastifyInstance {
    prisma: PrismaClient;
    /** The database client of the back-office routes: every write on it is audited (modules/security/audit.ts). */
    backofficeDb: Db;
    /** The public catalog's reads, as plain SQL (see catalog-queries.ts): the read replica when DATABASE_REPLICA_URL is set, else the primary. */
    catalogSql: SqlReader;
    /** Plain SQL on the primary, for the few hot paths Prisma slows down (checkout, the session check). */
    primarySql: SqlWriter;
    /** The primary's `pg` pool (under Prisma's adapter): the catalog cache's notices and WAL positions, the export's cursor, the pool's metrics. */
    databasePool: pg.Pool;
  }
}

export type Db = PrismaClient;

/**
 * Parameterized SQL straight on the pool. The storefront's catalog reads are one fixed statement each
 * that already returns the answer's rows; Prisma's query engine adds nothing to them but time (a
 * fifth of a catalog request's CPU), so they skip it. Everything else goes through Prisma.
 */
export interface SqlReader {
  /** `varies`: the text is built from the request (a browse page's sort and filters); see PREPARED_SHAPES_MOST. */
  query<T>(sql: string, values?: unknown[], varies?: boolean): Promise<T[]>;
}

/**
 * The same on the primary, with transactions: `work` runs between BEGIN and COMMIT on one connection,
 * and any error rolls it back. Checkout's transaction took 13 ms through Prisma's interactive
 * transactions and 7 ms in bare node-postgres (`npm run bench`).
 */
export interface SqlWriter extends SqlReader {
  transaction<T>(work: (tx: SqlReader) => Promise<T>): Promise<T>;
}

/**
 * At most this many texts that vary with the request are prepared. The code's own statements are a
 * fixed few dozen, each always prepared; but a browse page's text depends on its sort and on which of
 * its filters are present (browse-queries.ts): thousands of shapes, each prepared one holding about
 * half a megabyte in every connection's backend that ran it (its query tree and generic plan: 550 KB
 * for a filtered category page), and its text in node-postgres' note of what each connection
 * prepared. Any stranger can choose the shapes, so past this bound a shape runs unnamed, parsed and
 * planned on each call (about 1 ms more for a browse page), and holds nothing. The first shapes asked
 * for are kept: in a shop's day, the common ones (no filter or one, in each sort).
 */
export const PREPARED_SHAPES_MOST = 100;

/** The texts prepared so far, first come first served, up to `most`, each with its name and the first copy of its text. */
export function statementRegistry(most: number) {
  const prepared = new Map<string, { name: string; text: string }>();
  return {
    /**
     * The statement as a named prepared statement while fewer than `most` texts are (each connection
     * then parses and analyzes it once and only binds values), else unnamed. The text given is the
     * first copy seen, so the connections' notes of it share one string.
     */
    statement(sql: string, values: unknown[]): pg.QueryConfig {
      let known = prepared.get(sql);
      if (!known && prepared.size < most) {
        known = { name: `shop_${crypto.hash('sha1', sql).slice(0, 16)}`, text: sql };
        prepared.set(sql, known);
      }
      return known ? { name: known.name, text: known.text, values } : { text: sql, values };
    },
    get size() {
      return prepared.size;
    },
  };
}

/** The code's own statements: a fixed set of constants, so no bound is reached. */
const fixedStatements = statementRegistry(Number.POSITIVE_INFINITY);
const shapes = statementRegistry(PREPARED_SHAPES_MOST);

/**
 * A statement as a named prepared statement: planning is most of a small catalog read's time in the
 * database (2 ms of 2.5 for a home list at a million books). `varies`: the text is built from the
 * request, and is prepared only within PREPARED_SHAPES_MOST. Behind a pooler, this needs one that keeps
 * prepared statements (PgBouncer 1.21+ with max_prepared_statements).
 */
export const preparedStatement = (sql: string, values: unknown[], varies = false): pg.QueryConfig =>
  (varies ? shapes : fixedStatements).statement(sql, values);

function sqlReader(db: pg.Pool | pg.PoolClient, onQuery?: (sql: string) => void): SqlReader {
  return {
    async query<T>(sql: string, values: unknown[] = [], varies = false) {
      onQuery?.(sql);
      return (await db.query(preparedStatement(sql, values, varies))).rows as T[];
    },
  };
}

function sqlWriter(pool: pg.Pool, onQuery?: (sql: string) => void): SqlWriter {
  const control = (client: pg.PoolClient, command: 'BEGIN' | 'COMMIT' | 'ROLLBACK') => {
    onQuery?.(command);
    return client.query(command);
  };
  const reader = sqlReader(pool, onQuery);
  return {
    // A write outside a transaction takes effect as it ends: held to the request's budget.
    query: (sql, values, varies) =>
      writesAlone(sql) ? takingEffect(() => reader.query(sql, values, varies)) : reader.query(sql, values, varies),
    async transaction(work) {
      const budget = writeBudgets.getStore();
      refuseIfSpent(budget);
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        // Again once the connection came: the wait for it may have spent the budget.
        refuseIfSpent(budget);
        await control(client, 'BEGIN');
        const inTransaction = sqlReader(client, onQuery);
        const held: SqlReader = {
          query: (sql, values, varies) => {
            refuseIfSpent(budget);
            return inTransaction.query(sql, values, varies);
          },
        };
        const result = await work(budget ? held : inTransaction);
        // A refusal here rolls back below.
        await takingEffect(() => control(client, 'COMMIT'), undefined, budget);
        return result;
      } catch (error) {
        // A connection that cannot even roll back is ended rather than returned to the pool.
        await control(client, 'ROLLBACK').catch((rollbackError: Error) => {
          broken = rollbackError;
        });
        throw error;
      } finally {
        client.release(broken);
      }
    },
  };
}

const COMMIT = /^\s*commit\s*$/i;
/** What a transaction may always send: its end, and its savepoints' (Prisma's nested transactions). */
const ENDING = /^\s*(rollback|release)\b/i;
const ROLLBACK: SqlQuery = { sql: 'ROLLBACK', args: [], argTypes: [] };

/**
 * A Prisma transaction held to the budget of the request that began it (lib/write-budget.ts): no
 * statement once that request was answered 503, and its COMMIT held as a write. Prisma sends COMMIT
 * as a statement of its own and then only releases the connection, after a failed COMMIT too: so a
 * refused COMMIT sends ROLLBACK in its place.
 */
function budgetedTransaction(tx: Transaction, budget: WriteBudget): Transaction {
  const statement = <T>(query: SqlQuery, run: () => Promise<T>) => {
    if (!ENDING.test(query.sql)) refuseIfSpent(budget);
    return run();
  };
  return {
    adapterName: tx.adapterName,
    provider: tx.provider,
    options: tx.options,
    queryRaw: (query) => statement(query, () => tx.queryRaw(query)),
    executeRaw: (query) =>
      COMMIT.test(query.sql)
        ? takingEffect(
            () => tx.executeRaw(query),
            () => tx.executeRaw(ROLLBACK),
            budget,
          )
        : statement(query, () => tx.executeRaw(query)),
    commit: () => tx.commit(),
    rollback: () => tx.rollback(),
    createSavepoint: tx.createSavepoint?.bind(tx),
    rollbackToSavepoint: tx.rollbackToSavepoint?.bind(tx),
    releaseSavepoint: tx.releaseSavepoint?.bind(tx),
  };
}

/**
 * Prisma's adapter with every write held to the request's budget, as the SQL writer's are: a lone
 * write, a transaction's start and its COMMIT. Here, where the statements are, every way Prisma writes
 * is covered, in the caller's context for each but a batch transaction (an array of queries):
 * Prisma's DataLoader runs a batch at the next tick, in whichever request's context asked first that
 * tick. So the code runs no batch transaction (scripts/data-layer.test.ts).
 */
export function budgetedAdapter(factory: SqlDriverAdapterFactory): SqlDriverAdapterFactory {
  const alone = <T>(query: SqlQuery, run: () => Promise<T>) => (writesAlone(query.sql) ? takingEffect(run) : run());
  return {
    adapterName: factory.adapterName,
    provider: factory.provider,
    async connect() {
      const adapter = await factory.connect();
      return {
        adapterName: adapter.adapterName,
        provider: adapter.provider,
        queryRaw: (query) => alone(query, () => adapter.queryRaw(query)),
        executeRaw: (query) => alone(query, () => adapter.executeRaw(query)),
        executeScript: (script) => adapter.executeScript(script),
        async startTransaction(isolationLevel) {
          const budget = writeBudgets.getStore();
          refuseIfSpent(budget);
          const tx = await adapter.startTransaction(isolationLevel);
          try {
            // Again once the connection came (and BEGIN with it): the wait may have spent the budget.
            refuseIfSpent(budget);
          } catch (error) {
            await tx.executeRaw(ROLLBACK).catch(() => undefined);
            await tx.rollback();
            throw error;
          }
          return budget ? budgetedTransaction(tx, budget) : tx;
        },
        getConnectionInfo: adapter.getConnectionInfo?.bind(adapter),
        dispose: () => adapter.dispose(),
      };
    },
  };
}

export interface PrismaPluginOptions {
  /** Called with each SQL statement: lets tests and benchmarks count queries per request. */
  onQuery?: (sql: string) => void;
}

/**
 * A pool whose every connection keeps an 'error' listener for its whole life. pg-pool removes its own
 * idle listener when it hands a connection out, and Prisma's adapter adds its listener only after an
 * await, so an error arriving in between (the server terminating the backend: a DBA, a failover,
 * idle_session_timeout) would be an unhandled 'error' event and end the process (node-postgres#2762).
 */
export function createPool(url: string, limits: Config['database'], log: FastifyBaseLogger, name = 'primary'): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: limits.poolSize,
    // A request waiting for a free connection gives up (503) instead of queueing without end.
    connectionTimeoutMillis: limits.connectTimeoutMs,
    // Sent as session settings at connect: a blocked row lock or a runaway statement fails fast on the
    // server, which also frees the connection for other requests.
    lock_timeout: limits.lockTimeoutMs,
    statement_timeout: limits.statementTimeoutMs,
    idle_in_transaction_session_timeout: limits.statementTimeoutMs * 4,
    // Names the API's sessions in pg_stat_activity (operators, and the fault tests, find them by it).
    application_name: 'bookshop-api',
    // The timestamp columns hold UTC without a time zone, as Prisma reads and writes them; a default of
    // now() and the plain SQL's comparisons must see UTC too, whatever the server's TimeZone.
    options: '-c TimeZone=UTC',
  });
  const onConnectionError = (error: Error) =>
    log.warn({ err: connectionError(error), pool: name }, 'database connection lost; the pool replaces it');
  pool.on('connect', (client) => client.on('error', onConnectionError));
  // Errors of idle connections are re-emitted on the pool; the adapter's listener comes and goes with it.
  pool.on('error', onConnectionError);
  return pool;
}

/** How long the start waits for a pool's settings check: past it, the database is taken as not answering yet. */
const SESSION_CHECK_WITHIN_MS = 3_000;

/**
 * What the pool's sessions lack of the settings createPool sends at connect, said for an operator, or
 * null. Something between can drop them without a word: PgBouncer refuses them by default, and drops
 * them when told to ignore them (`ignore_startup_parameters`), as does a DATABASE_URL's own `options`
 * or `statement_timeout` (node-postgres prefers the address's). No statement or lock wait would then
 * ever end in a 503, and under another time zone every default of now() and every plain SQL comparison
 * of the UTC timestamp columns would be hours off. Other errors (the database not answering) are thrown.
 */
export async function sessionSettingsProblem(pool: pg.Pool, name: string): Promise<string | null> {
  const onTheRole = 'on the database role (ALTER ROLE ... SET); see docs/operations.md, "Scaling out".';
  let session: { utc: boolean; timeZone: string; statement: string; lock: string; idle: string };
  try {
    // The time zone's offset in January and in July: UTC, or a zone that never leaves it (Europe/London does in summer).
    const { rows } = await pool.query<typeof session>(
      `SELECT extract(timezone FROM timestamptz '2026-01-15 12:00+00') = 0 AND extract(timezone FROM timestamptz '2026-07-15 12:00+00') = 0 AS utc,
              current_setting('TimeZone') AS "timeZone", current_setting('statement_timeout') AS statement,
              current_setting('lock_timeout') AS lock, current_setting('idle_in_transaction_session_timeout') AS idle`,
    );
    session = rows[0]!;
  } catch (error) {
    // PgBouncer's own refusal of the settings, by default: "unsupported startup parameter: statement_timeout".
    const { code, message } = error as { code?: string; message?: string };
    if (code === '08P01' && message?.startsWith('unsupported startup parameter')) {
      return `The ${name} database refuses the settings the API sends as it connects (${message}): a pooler between refuses them (PgBouncer does by default). List them in its ignore_startup_parameters and set them ${onTheRole}`;
    }
    throw error;
  }
  const lacking = [
    !session.utc && `TimeZone UTC (it is ${session.timeZone})`,
    session.statement === '0' && 'statement_timeout',
    session.lock === '0' && 'lock_timeout',
    session.idle === '0' && 'idle_in_transaction_session_timeout',
  ].filter((setting) => setting !== false);
  if (lacking.length === 0) return null;
  return `The ${name} database's sessions lack ${lacking.join(', ')}, which the API sets as it connects: something between drops them (PgBouncer's ignore_startup_parameters, or options or statement_timeout in the database URL). Set them ${onTheRole}`;
}

/**
 * A lost connection's error as the log keeps it: what happened, not the pg client node-postgres hangs
 * on it (its connection settings and the text of every statement it prepared).
 */
export const connectionError = (
  error: Error & { code?: string; severity?: string; errno?: number; syscall?: string; address?: string; port?: number },
) => ({
  name: error.name,
  message: error.message,
  code: error.code,
  severity: error.severity,
  // A network failure's own facts (ECONNREFUSED to which address), none of them a secret.
  errno: error.errno,
  syscall: error.syscall,
  address: error.address,
  port: error.port,
});

export default fp<PrismaPluginOptions>(
  async (app, { onQuery }) => {
    const pool = createPool(app.config.databaseUrl, app.config.database, app.log);
    const adapter = budgetedAdapter(new PrismaPg(pool));
    // A transaction (a staff save, a cancel, an audited write) waits for a
    // connection as long as any statement does (the pool's wait), not the 2 s Prisma gives up after
    // by default, which at a busy moment would fail it while a checkout beside it still waited.
    const transactionOptions = { maxWait: app.config.database.connectTimeoutMs };
    const prisma = onQuery
      ? new PrismaClient({ adapter, transactionOptions, log: [{ emit: 'event', level: 'query' }] })
      : new PrismaClient({ adapter, transactionOptions });
    if (onQuery) (prisma as PrismaClient<'query'>).$on('query', (event) => onQuery(event.query));
    await prisma.$connect();
    app.decorate('prisma', prisma);
    app.decorate('backofficeDb', auditedClient(prisma, app.config.database.statementTimeoutMs));
    app.decorate('databasePool', pool);
    app.decorate('primarySql', sqlWriter(pool, onQuery));

    // Only the public catalog reads the replica: writes, and the reads that must see them, stay on the primary.
    const replicaPool = app.config.databaseReplicaUrl
      ? createPool(app.config.databaseReplicaUrl, app.config.database, app.log, 'replica')
      : undefined;
    app.decorate('catalogSql', sqlReader(replicaPool ?? pool, onQuery));

    // A database that does not answer yet (or slowly: each plugin has 10 s to load) is no reason to refuse:
    // the API starts and answers 503 until it does. Each pool is checked on its own.
    const checks = await Promise.allSettled([
      answerWithin(sessionSettingsProblem(pool, 'primary'), SESSION_CHECK_WITHIN_MS),
      replicaPool && answerWithin(sessionSettingsProblem(replicaPool, 'replica'), SESSION_CHECK_WITHIN_MS),
    ]);
    for (const check of checks) {
      if (check.status === 'rejected') {
        app.log.warn({ err: connectionError(check.reason) }, "the database sessions' settings could not be checked: it did not answer");
      }
    }
    const problems = checks.map((check) => (check.status === 'fulfilled' ? check.value : null));
    const problem = problems.find(Boolean);
    if (problem) {
      await prisma.$disconnect();
      await Promise.all([pool.end(), replicaPool?.end()]);
      throw new ConfigError(problem);
    }

    // Prisma's disconnect leaves a pool passed in open: end it, after in-flight queries have finished.
    app.addHook('onClose', async () => {
      await prisma.$disconnect();
      await pool.end();
      await replicaPool?.end();
      app.log.info('database pool closed');
    });
  },
  { name: 'prisma', dependencies: ['config'] },
);

// The database: one explicit pg.Pool per process, handed to Prisma's pg adapter, with limits so that
// nothing waits forever (a pooled connection, a row lock, a statement) and an error listener on every
// connection so that a connection the server ends cannot crash the process.
import { PrismaPg } from '@prisma/adapter-pg';
import { readReplicas } from '@prisma/extension-read-replicas';
import type { FastifyBaseLogger } from 'fastify';
import fp from 'fastify-plugin';
import pg from 'pg';
import type { Config } from '../config.ts';
import { PrismaClient } from '../generated/prisma/client.ts';

declare module 'fastify' {
  interface FastifyInstance {
    prisma: PrismaClient;
    /** The public catalog's reads: the read replica when DATABASE_REPLICA_URL is set, else the primary. */
    catalogDb: PrismaClient;
    /** The primary's pool, for metrics (connections in use, requests waiting). */
    databasePool: pg.Pool;
  }
}

export type Db = PrismaClient;

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
export function createPool(url: string, limits: Config['database'], log: FastifyBaseLogger): pg.Pool {
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
  });
  const onConnectionError = (error: Error) => log.warn({ err: error }, 'database connection lost; the pool replaces it');
  pool.on('connect', (client) => client.on('error', onConnectionError));
  // Errors of idle connections are re-emitted on the pool; the adapter's listener comes and goes with it.
  pool.on('error', onConnectionError);
  return pool;
}

export default fp<PrismaPluginOptions>(
  async (app, { onQuery }) => {
    const pool = createPool(app.config.databaseUrl, app.config.database, app.log);
    const adapter = new PrismaPg(pool);
    const prisma = onQuery ? new PrismaClient({ adapter, log: [{ emit: 'event', level: 'query' }] }) : new PrismaClient({ adapter });
    if (onQuery) (prisma as PrismaClient<'query'>).$on('query', (event) => onQuery(event.query));
    await prisma.$connect();
    app.decorate('prisma', prisma);
    app.decorate('databasePool', pool);

    let catalogDb = prisma;
    let replicaPool: pg.Pool | undefined;
    if (app.config.databaseReplicaUrl) {
      replicaPool = createPool(app.config.databaseReplicaUrl, app.config.database, app.log);
      const replica = new PrismaClient({ adapter: new PrismaPg(replicaPool) });
      // The extension owns the replica's connection and picks it for $replica(); catalog queries include
      // raw SQL, which the extension would not route by itself, so the catalog asks for the replica.
      const withReplicas = prisma.$extends(readReplicas({ replicas: [replica] }));
      await withReplicas.$connect();
      catalogDb = withReplicas.$replica() as unknown as PrismaClient;
      app.addHook('onClose', () => withReplicas.$disconnect());
    }
    app.decorate('catalogDb', catalogDb);

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

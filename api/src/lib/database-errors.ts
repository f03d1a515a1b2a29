// Which errors mean "the database cannot serve this right now" rather than "this request or this code
// is wrong": the server is down, restarting or out of connections, our connection was ended, the pool
// had no free connection in time, or a lock or statement timed out. Those answer 503 with Retry-After
// (plugins/errors.ts); a retry a moment later can succeed.

/** Seconds a client should wait before retrying after a 503 caused by the database. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

const UNAVAILABLE_SQLSTATES = new Set([
  '08000', // connection_exception
  '08001', // sqlclient_unable_to_establish_sqlconnection
  '08003', // connection_does_not_exist
  '08006', // connection_failure
  '53300', // too_many_connections
  '55P03', // lock_not_available: lock_timeout expired
  '57014', // query_canceled: statement_timeout expired
  '57P01', // admin_shutdown: pg_terminate_backend, or a fast shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up or shutting down
]);

/** @prisma/adapter-pg's names for socket-level failures. */
const UNAVAILABLE_ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);

/**
 * Prisma's codes for an unreachable server, a timed-out connect, a closed connection, a pool timeout,
 * and a transaction that ran past its time (P2028).
 */
const UNAVAILABLE_PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2028']);

/** node-postgres and pg-pool raise these as plain Errors, without a code. */
const UNAVAILABLE_MESSAGES = [
  'timeout exceeded when trying to connect',
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
];

interface MaybeDatabaseError {
  code?: unknown;
  kind?: unknown;
  originalCode?: unknown;
  message?: unknown;
  cause?: unknown;
  meta?: { driverAdapterError?: unknown };
}

/** A deadlock or a serialization failure: the statement lost a race and may be run again as it was. */
export function isLostRace(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 5) return false;
  const e = error as MaybeDatabaseError;
  const lost = (code: unknown) => code === '40P01' || code === '40001';
  if (lost(e.code) || lost(e.originalCode)) return true;
  return isLostRace(e.meta?.driverAdapterError, depth + 1) || isLostRace(e.cause, depth + 1);
}

/** Runs a statement that is safe to repeat, once more if it lost a race (deadlock, serialization). */
export async function retryLostRace<T>(statement: () => Promise<T>): Promise<T> {
  try {
    return await statement();
  } catch (error) {
    if (!isLostRace(error)) throw error;
    return statement();
  }
}

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 5) return false;
  // A deadlock or serialization failure that got this far: the same request a moment later succeeds.
  if (depth === 0 && isLostRace(error)) return true;
  const e = error as MaybeDatabaseError;
  if (typeof e.code === 'string' && (UNAVAILABLE_SQLSTATES.has(e.code) || UNAVAILABLE_PRISMA_CODES.has(e.code))) return true;
  if (typeof e.originalCode === 'string' && UNAVAILABLE_SQLSTATES.has(e.originalCode)) return true;
  if (typeof e.kind === 'string' && UNAVAILABLE_ADAPTER_KINDS.has(e.kind)) return true;
  if (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.some((m) => (e.message as string).startsWith(m))) return true;
  if (typeof e.code === 'string' && ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE'].includes(e.code)) return true;
  return isDatabaseUnavailable(e.meta?.driverAdapterError, depth + 1) || isDatabaseUnavailable(e.cause, depth + 1);
}

/** The innermost code and message of such an error: enough for a warn log line, without a stack. */
export function databaseErrorSummary(error: unknown): string {
  let current = error as MaybeDatabaseError | undefined;
  for (let depth = 0; depth < 5; depth++) {
    const next = (current?.meta?.driverAdapterError ?? current?.cause) as MaybeDatabaseError | undefined;
    if (!next || typeof next !== 'object') break;
    current = next;
  }
  const code = current?.originalCode ?? current?.code ?? current?.kind ?? '';
  const message = typeof current?.message === 'string' ? current.message.trim().split('\n').at(-1) : '';
  return [code, message].filter(Boolean).join(' ') || String(error);
}

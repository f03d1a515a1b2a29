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

/** The fields a database or ORM error may carry at any level of its chain. */
export interface MaybeDatabaseError {
  name?: unknown;
  code?: unknown;
  kind?: unknown;
  originalCode?: unknown;
  /** @prisma/adapter-pg's copy of PostgreSQL's message. */
  originalMessage?: unknown;
  message?: unknown;
  cause?: unknown;
  meta?: { driverAdapterError?: unknown };
}

/**
 * Whether `test` holds for the error or for one it wraps: Prisma keeps the driver's error in
 * meta.driverAdapterError, others in `cause`. Five levels at most, so a cycle cannot loop.
 */
export function someCause(error: unknown, test: (e: MaybeDatabaseError) => boolean, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 5) return false;
  const e = error as MaybeDatabaseError;
  return test(e) || someCause(e.meta?.driverAdapterError, test, depth + 1) || someCause(e.cause, test, depth + 1);
}

/** A deadlock or a serialization failure: the statement lost a race and may be run again as it was. */
export function isLostRace(error: unknown): boolean {
  const lost = (code: unknown) => code === '40P01' || code === '40001';
  return someCause(error, (e) => lost(e.code) || lost(e.originalCode));
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

/** One level of an error chain that says the database is out of reach (see the lists above). */
function saysUnavailable(e: MaybeDatabaseError): boolean {
  if (typeof e.code === 'string' && (UNAVAILABLE_SQLSTATES.has(e.code) || UNAVAILABLE_PRISMA_CODES.has(e.code))) return true;
  if (typeof e.originalCode === 'string' && UNAVAILABLE_SQLSTATES.has(e.originalCode)) return true;
  if (typeof e.kind === 'string' && UNAVAILABLE_ADAPTER_KINDS.has(e.kind)) return true;
  if (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.some((m) => (e.message as string).startsWith(m))) return true;
  return typeof e.code === 'string' && ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE'].includes(e.code);
}

export function isDatabaseUnavailable(error: unknown): boolean {
  // A deadlock or serialization failure that got this far: the same request a moment later succeeds.
  return isLostRace(error) || someCause(error, saysUnavailable);
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

/**
 * Which of the schema's rules a write broke, when the database refused it for one: a unique key, a
 * reference (one whose row another transaction deleted meanwhile, or one still pointed at), or a
 * check. Plain SQL (node-postgres) reports PostgreSQL's own SQLSTATE, which Prisma's codes (P2002,
 * P2003) do not cover. `missing` is a reference to a row that is gone (an insert or update refused),
 * `referenced` a row still pointed at (a delete refused).
 */
export function brokenConstraint(error: unknown): 'unique' | 'missing' | 'referenced' | 'check' | null {
  let found: 'unique' | 'missing' | 'referenced' | 'check' | null = null;
  someCause(error, (e) => {
    const code = typeof e.code === 'string' && e.code.startsWith('23') ? e.code : e.originalCode;
    if (code === '23505') found = 'unique';
    else if (code === '23514') found = 'check';
    // 23001: a delete refused by an ON DELETE RESTRICT reference (an ordered copy's).
    else if (code === '23001') found = 'referenced';
    else if (code === '23503') found = /^insert or update/.test(String(e.originalMessage ?? e.message ?? '')) ? 'missing' : 'referenced';
    return found !== null;
  });
  return found;
}

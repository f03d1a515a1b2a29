// A write must not take effect after its request was answered 503 TIMEOUT (plugins/handler-timeout.ts):
// the client was told it failed, and may well do it again. A request's budget is checked where a write
// takes effect, the only place that can tell: when a transaction has its connection, before each of
// its statements and its COMMIT, and before a statement that commits alone. A COMMIT (or a lone
// write, from its wait for a connection on) under way when the budget runs out holds the 503 back
// until it ends, and one that ended makes the request's answer the handler's, however late: the
// database's own timeouts bound that wait (writeGraceMs), not the budget.
//
// The budget travels in AsyncLocalStorage from the handler of a route that may write (every method but
// GET and HEAD) to the database handles in plugins/prisma.ts, which call the functions below.
// The statements inside a transaction are not held: the 503 goes out at the budget, and the statement
// or COMMIT that follows is refused, so the transaction rolls back. Work that outlives its request (an
// import, what a catalog event or the mail outbox starts) runs outside it: `writeBudgets.exit`.
// Decision 18 has the whole rule.

import { AsyncLocalStorage } from 'node:async_hooks';

export interface WriteBudget {
  /**
   * Throws FST_ERR_HANDLER_TIMEOUT once the request is past its budget and its answer is not a
   * success already sent (answering the 503 first, if nothing has yet). Does nothing for work that
   * outlived an answer sent in time (an import, a notice after commit).
   */
  refuseIfSpent(): void;
  /** Statements that take effect when they end, now in flight: the 503 waits for them. */
  committing: number;
  /** A write of the request took effect: its answer is the handler's, never the 503. */
  committed: boolean;
}

export const writeBudgets = new AsyncLocalStorage<WriteBudget>();

/**
 * How long past its budget a write under way may hold its request's answer: a lone write's wait for a
 * connection and its run, each ended by the database's limits. Past it the connection is cut.
 */
export const writeGraceMs = (database: { connectTimeoutMs: number; statementTimeoutMs: number }) =>
  database.connectTimeoutMs + database.statementTimeoutMs;

const WRITING = /\b(insert|update|delete|merge)\b/i;

/**
 * Whether a statement run outside a transaction may write: anything but a read, which is a `SELECT`,
 * or a `WITH` whose parts name no writing command. Unsure is a write: the cost of calling a read a
 * write is a late answer, of calling a write a read a 503 that wrote.
 */
export function writesAlone(sql: string) {
  const first = /^\s*(\w+)/.exec(sql)?.[1]?.toLowerCase();
  if (first === 'select') return false;
  if (first === 'with') return WRITING.test(sql);
  return true;
}

/**
 * Before a transaction begins, and before each of its statements: a request past its budget begins
 * none, and one answered 503 goes no further (its COMMIT would be refused, and its locks meanwhile
 * hold others up). A transaction reads its budget once, where it begins, in its caller's context:
 * Prisma runs an interactive transaction's statements at a later tick, in whichever context then.
 */
export function refuseIfSpent(budget = writeBudgets.getStore()) {
  budget?.refuseIfSpent();
}

/**
 * Runs a statement that takes effect as it ends (a COMMIT, a write outside a transaction): refused once
 * the budget is spent; while it runs, the request's 503 waits; once it has succeeded, there is none.
 * `onRefused` runs before the refusal is thrown (a transaction's COMMIT rolls back instead).
 */
export async function takingEffect<T>(
  statement: () => Promise<T>,
  onRefused?: () => Promise<unknown>,
  budget = writeBudgets.getStore(),
): Promise<T> {
  if (!budget) return statement();
  try {
    budget.refuseIfSpent();
  } catch (error) {
    // A connection that cannot even roll back is lost anyway: the refusal is what the caller must see.
    await onRefused?.().catch(() => undefined);
    throw error;
  }
  budget.committing++;
  try {
    const result = await statement();
    budget.committed = true;
    return result;
  } finally {
    budget.committing--;
  }
}

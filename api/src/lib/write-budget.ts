// A write must not take effect after its request was answered 503 TIMEOUT (plugins/handler-timeout.ts):
// the client was told it failed, and may well do it again. A request's budget is checked where a write
// takes effect, the only place that can tell: before a transaction begins, before its COMMIT, and
// before a statement that commits alone. A COMMIT (or a lone write) already sent when the budget runs
// out holds the 503 back until it ends, and one that ended makes the request's answer the handler's,
// however late: the statement timeout bounds that wait, not the budget.
//
// The budget travels in AsyncLocalStorage from the handler of a route that may write (every method but
// GET and HEAD) to the database handles in plugins/prisma.ts, which call the two functions below.
// The statements inside a transaction are not held: the 503 goes out at the budget, and the COMMIT
// that follows is refused, so the transaction rolls back.
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

/** Whether a statement run outside a transaction may write: anything but a plain read. */
export const writesAlone = (sql: string) => !/^\s*select\b/i.test(sql);

/** Before BEGIN: a request past its budget starts no transaction (nor waits for a connection for one). */
export function refuseIfSpent() {
  writeBudgets.getStore()?.refuseIfSpent();
}

/**
 * Runs a statement that takes effect as it ends (a COMMIT, a write outside a transaction): refused once
 * the budget is spent; while it runs, the request's 503 waits; once it has succeeded, there is none.
 * `onRefused` runs before the refusal is thrown (a transaction's COMMIT rolls back instead).
 */
export async function takingEffect<T>(statement: () => Promise<T>, onRefused?: () => Promise<unknown>): Promise<T> {
  const budget = writeBudgets.getStore();
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

// Every back-office write is recorded in the transaction that makes it. The database does the
// recording (the trigger audit_backoffice_write: who, which row, its columns before and after); the
// API only names the acting employee inside that transaction, with a transaction-local setting.
// That naming happens once, in a Prisma query extension on the client the back-office uses, so no
// write can forget it; the employee travels in AsyncLocalStorage from the role check
// (plugins/sessions.ts, then plugins/audit-actor.ts) to the query. A write with no employee named is
// not a back-office write (checkout, ratings) and the trigger records nothing for it.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../plugins/prisma.ts';
import { AUDITED_ENTITIES } from '../../schemas/staff.ts';

export interface AuditActor {
  /** `employee:<id>`, as the audit log names people. */
  actor: string;
  address: string;
}

export const auditContext = new AsyncLocalStorage<AuditActor & { inTransaction?: boolean }>();

/** The models whose tables carry the audit trigger (see the backoffice_reports migration). */
const AUDITED_MODELS = new Set<string>(AUDITED_ENTITIES);
const WRITES = new Set([
  'create',
  'createMany',
  'createManyAndReturn',
  'update',
  'updateMany',
  'updateManyAndReturn',
  'upsert',
  'delete',
  'deleteMany',
]);

/** Names the actor for the rest of the current transaction only (set_config's third argument). */
const nameActor = (tx: Db | Prisma.TransactionClient, who: AuditActor) =>
  tx.$executeRaw`SELECT set_config('bookshop.audit_actor', ${who.actor}, true), set_config('bookshop.audit_address', ${who.address}, true)`;

/** A model's delegate on a client, as Prisma names it: `BookCopy` is `bookCopy`. */
const delegateOf = (tx: Prisma.TransactionClient, model: string) =>
  (tx as unknown as Record<string, Record<string, (args: unknown) => Promise<unknown>>>)[model[0]!.toLowerCase() + model.slice(1)]!;

/**
 * A client whose writes to audited models, inside an employee's request, run in one transaction with
 * the naming. An interactive transaction, not a batch `[naming, write]`: Prisma runs a batch at the
 * next tick in whichever request's context asked first that tick, which would check its COMMIT
 * against another request's time budget (lib/write-budget.ts).
 */
export function auditedClient(db: Db, statementTimeoutMs: number): Db {
  // Two statements, the naming and the write, each bounded by the statement timeout: Prisma's default
  // of 5 s for the whole transaction would cut a long write that the batch it replaces let run.
  const options = { timeout: statementTimeoutMs * 2 };
  return db.$extends({
    query: {
      $allModels: {
        async $allOperations({ model, operation, args, query }) {
          const who = auditContext.getStore();
          if (!who || who.inTransaction || !AUDITED_MODELS.has(model) || !WRITES.has(operation)) return query(args);
          return db.$transaction(async (tx) => {
            await nameActor(tx, who);
            return delegateOf(tx, model)[operation]!(args);
          }, options);
        },
      },
    },
  }) as unknown as Db;
}

/**
 * An interactive transaction for back-office work of several statements: the actor is named at its
 * start, and its writes are recorded as theirs. Back-office writes of several statements use this,
 * never another transaction: the extension's own, for each write, would run beside it on another
 * connection, outside it.
 */
export function auditedTransaction<T>(
  db: Db,
  work: (tx: Prisma.TransactionClient) => Promise<T>,
  options?: { timeout?: number; maxWait?: number },
): Promise<T> {
  const who = auditContext.getStore();
  if (!who || who.inTransaction) return db.$transaction(work, options);
  return db.$transaction(async (tx) => {
    await nameActor(tx, who);
    return auditContext.run({ ...who, inTransaction: true }, () => work(tx));
  }, options);
}

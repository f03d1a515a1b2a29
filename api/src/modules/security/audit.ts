// Every back-office write is recorded: who (the signed-in employee), what (model, operation, ids),
// and the rows before and after. Done once, in a Prisma query extension on the client the
// back-office routes use, so no write can forget it; the acting employee travels in
// AsyncLocalStorage from the role check (plugins/auth.ts) to the query.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db } from '../../plugins/prisma.ts';
import type { SecurityEvents } from './security-events.ts';

export const auditContext = new AsyncLocalStorage<{ actor: string; address: string }>();

const AUDITED_MODELS = new Set(['Author', 'Book', 'BookCopy', 'Order', 'Employee', 'ContactMessage', 'BookReview']);
const WRITES = new Set(['create', 'createMany', 'update', 'updateMany', 'upsert', 'delete', 'deleteMany']);
/** Never stored: secrets, and derived or bulky text that says nothing about who changed what. */
const HIDDEN_FIELDS = new Set(['passwordHash', 'searchText', 'description']);
/** A bulk write records at most this many rows before and after. */
const MAX_ROWS = 50;

type Row = Record<string, unknown> & { id?: unknown };

/** The plain values a write sets (nested relation writes are not field values). */
const scalars = (data: unknown): Row =>
  Object.fromEntries(
    Object.entries((data ?? {}) as Row).filter(
      ([, v]) => v === null || v instanceof Date || ['string', 'number', 'boolean', 'bigint'].includes(typeof v),
    ),
  );
type Delegate = { findMany(args: object): Promise<Row[]> };

/** JSON that also carries bigint (ratings sums) as strings; Decimal and Date serialize themselves. */
const toJson = (value: unknown, hide = false) =>
  JSON.stringify(value, (key, v) => (hide && HIDDEN_FIELDS.has(key) ? undefined : typeof v === 'bigint' ? String(v) : v));

/** Plain JSON without hidden fields. */
const visible = (rows: Row[]) => JSON.parse(toJson(rows, true));

/** The fields whose values differ between a row before and after, hidden ones included by name only. */
function changedFields(before: Row[], after: Row[]): string[] {
  const changed = new Set<string>();
  for (const old of before) {
    const next = after.find((a) => a.id === old.id) ?? {};
    for (const key of Object.keys(next)) if (toJson(old[key]) !== toJson(next[key])) changed.add(key);
  }
  return [...changed];
}

export function auditedClient(db: Db, events: SecurityEvents): Db {
  const delegateOf = (model: string) => (db as unknown as Record<string, Delegate>)[model[0]!.toLowerCase() + model.slice(1)]!;
  return db.$extends({
    query: {
      $allModels: {
        async $allOperations({ model, operation, args, query }) {
          const who = auditContext.getStore();
          if (!who || !AUDITED_MODELS.has(model) || !WRITES.has(operation)) return query(args);
          const delegate = delegateOf(model);
          const where = (args as { where?: object }).where;
          const before = where ? await delegate.findMany({ where, take: MAX_ROWS }) : [];
          const result = (await query(args)) as Row | { count: number };
          // "After" is derived, not read back: a read here would run outside the write's transaction
          // and see the old row until it commits.
          const written = scalars((args as { data?: unknown }).data);
          const returned = 'count' in result ? {} : result;
          const after = operation.startsWith('delete')
            ? []
            : operation.startsWith('create')
              ? [{ ...written, ...returned }]
              : before.map((row) => ({ ...row, ...written, ...returned }));
          const ids = (operation.startsWith('create') ? after : before).map((r) => r.id).filter((id) => id !== undefined);
          await events.record({
            type: 'backoffice_write',
            actor: who.actor,
            address: who.address,
            entity: model,
            entityId: ids.join(',').slice(0, 200),
            details: { operation, changed: changedFields(before, after), before: visible(before), after: visible(after) },
          });
          return result;
        },
      },
    },
  }) as unknown as Db;
}

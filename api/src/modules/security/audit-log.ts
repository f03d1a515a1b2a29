// The audit log (beyond the spec): security events and back-office writes, newest first, filtered
// by entity, event type, person and day, paged by id (the log only grows, so a page never shifts).
// Read-only: no route changes or removes an entry, and the table refuses it (security_events_append_only)
// but for a repeated event's count and the retention job (plugins/retention.ts).

import type { Static } from 'typebox';
import type { Prisma } from '../../generated/prisma/client.ts';
import { parseCalendarDate } from '../../lib/dates.ts';
import { refuse } from '../../lib/refusals.ts';
import type { Db } from '../../plugins/prisma.ts';
import type { AuditQuery } from '../../schemas/staff.ts';

const DEFAULT_PAGE_SIZE = 25;
const DAY_MS = 24 * 60 * 60 * 1000;
const EMPLOYEE_ACTOR = /^employee:(\d+)$/;
/** An employee's id is a PostgreSQL integer: a larger one is nobody, and must not reach the query. */
const LARGEST_ID = 2 ** 31 - 1;

export function auditLog(db: Db) {
  const day = (text: string | undefined, what: 'from' | 'to') => {
    if (text === undefined) return undefined;
    const date = parseCalendarDate(text);
    if (!date) throw refuse.form(`The ${what} date must be a real day (YYYY-MM-DD).`);
    return date;
  };

  return {
    async page(query: Static<typeof AuditQuery>) {
      const take = query.pageSize ?? DEFAULT_PAGE_SIZE;
      const from = day(query.from, 'from');
      const to = day(query.to, 'to');
      if (from && to && from > to) throw refuse.form('The from date must not be after the to date.');
      const where: Prisma.SecurityEventWhereInput = {
        entity: query.entity,
        type: query.type,
        actor: query.actor,
        at: from || to ? { gte: from, lt: to ? new Date(to.getTime() + DAY_MS) : undefined } : undefined,
        id: query.before ? { lt: BigInt(query.before) } : undefined,
      };
      const rows = await db.securityEvent.findMany({ where, orderBy: { id: 'desc' }, take: take + 1 });
      const page = rows.slice(0, take);
      const employeeIds = [
        ...new Set(
          page
            .map((r) => EMPLOYEE_ACTOR.exec(r.actor ?? '')?.[1])
            .filter(Boolean)
            .map(Number)
            .filter((id) => id <= LARGEST_ID),
        ),
      ];
      const employees = employeeIds.length
        ? await db.employee.findMany({ where: { id: { in: employeeIds } }, select: { id: true, firstName: true, lastName: true } })
        : [];
      const names = new Map(employees.map((e) => [`employee:${e.id}`, `${e.firstName} ${e.lastName}`]));
      return {
        entries: page.map((r) => ({
          id: Number(r.id),
          at: r.at.toISOString(),
          type: r.type,
          actor: r.actor,
          actorName: (r.actor && names.get(r.actor)) ?? null,
          address: r.address,
          entity: r.entity,
          entityId: r.entityId,
          details: (r.details as Record<string, unknown> | null) ?? null,
          count: r.count,
          lastAt: r.lastAt.toISOString(),
        })),
        nextBefore: rows.length > take ? Number(page.at(-1)!.id) : null,
      };
    },
  };
}

export type AuditLog = ReturnType<typeof auditLog>;

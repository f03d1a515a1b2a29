// Security events (failed sign-ins, lockouts, refresh-token reuse, refused authorization, refused
// cross-site calls): logged as structured lines and stored for the Admin. Back-office writes share
// the table, written by the audit trigger in their own transaction (modules/security/audit.ts).
// Never a password or a token: callers pass identifiers and field values only.
import type { FastifyBaseLogger } from 'fastify';
import type { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../plugins/prisma.ts';
import type { AUDIT_EVENT_TYPES } from '../../schemas/staff.ts';

/** The types this module records; the audit log's filter lists them (and the trigger's backoffice_write). */
export type SecurityEventType = Exclude<(typeof AUDIT_EVENT_TYPES)[number], 'backoffice_write'>;

export interface SecurityEvent {
  type: SecurityEventType;
  /** Who: an account e-mail, or `employee:<id>` / `client:<id>` for a signed-in caller. */
  actor?: string | null;
  address?: string | null;
  entity?: string;
  entityId?: string | number;
  details?: Record<string, unknown>;
}

export function securityEvents(db: Db, log: FastifyBaseLogger) {
  const row = (event: SecurityEvent) => ({
    type: event.type,
    actor: event.actor ?? null,
    address: event.address ?? null,
    entity: event.entity ?? null,
    entityId: event.entityId === undefined ? null : String(event.entityId),
    details: (event.details ?? undefined) as Prisma.InputJsonValue | undefined,
  });
  return {
    /** How many events of this type this actor had in the last `withinMs` (a per-person limit). */
    count: (type: SecurityEventType, actor: string, withinMs: number) =>
      db.securityEvent.count({ where: { type, actor, at: { gt: new Date(Date.now() - withinMs) } } }),

    /** Logs and stores an event. Storing never fails the request that caused it: a failure to store is logged instead. */
    async record(event: SecurityEvent): Promise<void> {
      log.warn({ securityEvent: row(event) }, `security event: ${event.type}`);
      await db.securityEvent.create({ data: row(event), select: { id: true } }).catch((error: Error) => {
        log.error({ err: error, securityEvent: event.type }, 'could not store a security event');
      });
    },
  };
}

export type SecurityEvents = ReturnType<typeof securityEvents>;

// Security events (failed sign-ins, lockouts, refresh-token reuse, refused authorization, refused
// cross-site calls) and back-office writes: logged as structured lines and stored for the Admin.
// Never a password or a token: callers pass identifiers and field values only.
import type { FastifyBaseLogger } from 'fastify';
import type { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../plugins/prisma.ts';

export type SecurityEventType =
  | 'login_failed'
  | 'login_locked'
  | 'password_check_failed'
  | 'refresh_token_reuse'
  | 'authorization_refused'
  | 'csrf_refused'
  | 'rate_limited'
  | 'password_reset_requested'
  | 'password_reset'
  | 'backoffice_write';

export interface SecurityEvent {
  type: SecurityEventType;
  /** Who: an account e-mail, or `employee:<id>` / `client:<id>` for a signed-in caller. */
  actor?: string | null;
  address?: string | null;
  entity?: string;
  entityId?: string | number;
  details?: Record<string, unknown>;
}

type Writer = Pick<Db, 'securityEvent'> | Prisma.TransactionClient;

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
    /**
     * Logs and stores an event. Storing never fails the request that caused it: a failure to store
     * is logged instead. Back-office writes pass their transaction, so the entry commits with the change.
     */
    /** How many events of this type this actor had in the last `withinMs` (a per-person limit). */
    count: (type: SecurityEventType, actor: string, withinMs: number) =>
      db.securityEvent.count({ where: { type, actor, at: { gt: new Date(Date.now() - withinMs) } } }),

    async record(event: SecurityEvent, tx: Writer = db): Promise<void> {
      log.warn({ securityEvent: row(event) }, `security event: ${event.type}`);
      if (tx !== db) {
        await tx.securityEvent.create({ data: row(event), select: { id: true } });
        return;
      }
      await db.securityEvent.create({ data: row(event), select: { id: true } }).catch((error: Error) => {
        log.error({ err: error, securityEvent: event.type }, 'could not store a security event');
      });
    },
  };
}

export type SecurityEvents = ReturnType<typeof securityEvents>;

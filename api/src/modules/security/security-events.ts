// Security events (failed sign-ins, lockouts, refresh-token reuse, refused authorization, refused
// cross-site calls): logged as structured lines and stored for the Admin. Back-office writes share
// the table, written by the audit trigger in their own transaction (modules/security/audit.ts).
// Never a password or a token: callers pass identifiers and field values only.
//
// Nothing a stranger sends may grow the table without bound: an event a stranger can repeat
// (REPEATABLE) from the same address (and account) in one window is one row whose count rises, and
// once a kind has CROWDED_AFTER rows in a window, the rest of that window's events of the kind share
// one row for "many addresses" (each is still a log line of its own); a client's sign-ins are crowded
// per account instead (CROWDED_PER_ACTOR), so a crowd never takes another account's row. The retention job
// (plugins/retention.ts) removes rows past RETENTION_DAYS.
import type { FastifyBaseLogger } from 'fastify';
import { Prisma } from '../../generated/prisma/client.ts';
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

/** The window repeated events share a row in. */
export const EVENT_WINDOW_MINUTES = 10;
/** Rows one kind of event may have in one window before the rest share one. */
export const CROWDED_AFTER = 100;
/** The address and actor of the row that holds a crowded window's overflow. */
export const MANY = '*';
/**
 * The kinds a stranger (or a client) can repeat at will, grouped per window. Every other kind (a
 * reset, an enrolment) is one row each, so no event of the kind can hide behind another.
 */
export const REPEATABLE: ReadonlySet<SecurityEventType> = new Set<SecurityEventType>([
  'csrf_refused',
  'rate_limited',
  'login_failed',
  'login_locked',
  'password_check_failed',
  // Anyone may ask a reset for any client's e-mail, from as many addresses as they hold.
  'password_reset_requested',
  'second_factor_failed',
  'authorization_refused',
  // A client makes one per session (a sign-in, a refresh, its spent token again after 30 s), and
  // sign-ins that succeed are not limited: one row per account, address and window, with the first
  // session's id and the count, as a thief's from another address keeps a row of its own.
  'refresh_token_reuse',
  // A client's sign-ins that succeed are not limited either (see CROWDED_PER_ACTOR).
  'client_signed_in',
]);

/**
 * Repeatable kinds crowded per actor, not per kind: one row per account, address and window with the
 * count, and an account's addresses past ADDRESSES_PER_ACTOR sharing one row of that account's. Crowded
 * per kind, a hundred sign-ins in a window (a busy shop, or one account from a hundred addresses) put
 * every other account's sign-in in the "many" row, with no account and no address: the trail lost.
 */
const CROWDED_PER_ACTOR: ReadonlySet<SecurityEventType> = new Set<SecurityEventType>(['client_signed_in']);
export const ADDRESSES_PER_ACTOR = 10;
/**
 * Rows of such a kind in one window past which each account keeps one row only (its "many" row): the
 * kind's rows then grow with the accounts signing in, not with their addresses.
 */
export const CROWDED_PER_ACTOR_AFTER = 1000;

export function securityEvents(db: Db, log: FastifyBaseLogger) {
  const row = (event: SecurityEvent) => ({
    type: event.type,
    actor: event.actor ?? null,
    address: event.address ?? null,
    entity: event.entity ?? null,
    entityId: event.entityId === undefined ? null : String(event.entityId),
    details: event.details ?? null,
  });
  /** The event as a row (its details as JSON text), once it is logged. */
  const logged = (event: SecurityEvent) => {
    const stored = row(event);
    log.warn({ securityEvent: stored }, `security event: ${event.type}`);
    return { ...stored, details: stored.details === null ? null : JSON.stringify(stored.details) };
  };
  /** One row of its own: an event that is not merged by window (REPEATABLE). */
  const insertOne = (into: Pick<Db, '$executeRaw'>, stored: ReturnType<typeof logged>) =>
    into.$executeRaw`
      INSERT INTO security_events (type, actor, address, entity, entity_id, details)
      VALUES (${stored.type}, ${stored.actor}, ${stored.address}, ${stored.entity}, ${stored.entityId}, ${stored.details}::jsonb)`;
  return {
    /**
     * Logs and stores an event of a write, in the write's transaction `tx`: the event and the write
     * commit together or not at all (decision 10), so a failure to store it fails the write. For an
     * event that is one row each (not REPEATABLE, whose rows are merged).
     */
    async recordIn(tx: Prisma.TransactionClient, event: SecurityEvent): Promise<void> {
      if (REPEATABLE.has(event.type)) throw new Error(`${event.type} is merged by window: record it with record()`);
      await insertOne(tx, logged(event));
    },
    /** Logs and stores an event. Storing never fails the request that caused it: a failure to store is logged instead. */
    async record(event: SecurityEvent): Promise<void> {
      const stored = logged(event);
      const failed = (error: Error) => log.error({ err: error, securityEvent: event.type }, 'could not store a security event');
      if (!REPEATABLE.has(event.type)) {
        await insertOne(db, stored).catch(failed);
        return;
      }
      // The window's rows of this kind (narrowed by `filter`): at least `limit` of them?
      const reaches = (limit: number, filter = Prisma.empty) =>
        Prisma.sql`(SELECT count(*) FROM (SELECT 1 FROM security_events e, slot
                                          WHERE e.type = ${stored.type} AND e.bucket = slot.bucket ${filter} LIMIT ${limit}) AS kept) >= ${limit}`;
      const perActor = CROWDED_PER_ACTOR.has(event.type);
      // Crowded per account: its addresses past ADDRESSES_PER_ACTOR, or the kind past CROWDED_PER_ACTOR_AFTER,
      // share the account's own "many" row. Per kind: past CROWDED_AFTER, the kind's "many" row, nobody's.
      const crowdedWhen = perActor
        ? Prisma.sql`(${reaches(ADDRESSES_PER_ACTOR, Prisma.sql`AND e.actor = ${stored.actor}`)} OR ${reaches(CROWDED_PER_ACTOR_AFTER)})`
        : reaches(CROWDED_AFTER);
      const stays = (value: unknown, crowdedValue: unknown) => Prisma.sql`CASE WHEN crowded.yes THEN ${crowdedValue} ELSE ${value} END`;
      const values = perActor
        ? Prisma.sql`${stored.actor}, ${stays(stored.address, MANY)}, ${stored.entity}, ${stored.entityId}, ${stored.details}::jsonb`
        : Prisma.sql`${stays(stored.actor, MANY)}, ${stays(stored.address, MANY)}, ${stays(stored.entity, null)},
                     ${stays(stored.entityId, null)}, ${stays(Prisma.sql`${stored.details}::jsonb`, null)}`;
      await db.$executeRaw`
        WITH slot AS (
          SELECT date_bin(${`${EVENT_WINDOW_MINUTES} minutes`}::interval, localtimestamp, timestamp '2000-01-01') AS bucket
        ), crowded AS (
          SELECT NOT EXISTS (
                   SELECT 1 FROM security_events e, slot
                   WHERE e.type = ${stored.type} AND e.bucket = slot.bucket
                     AND coalesce(e.address, '') = coalesce(${stored.address}, '') AND coalesce(e.actor, '') = coalesce(${stored.actor}, ''))
                 AND ${crowdedWhen}
                 AS yes
        )
        INSERT INTO security_events AS e (type, actor, address, entity, entity_id, details, bucket)
        SELECT ${stored.type}, ${values}, slot.bucket
        FROM slot, crowded
        ON CONFLICT (type, bucket, (coalesce(address, '')), (coalesce(actor, ''))) WHERE bucket IS NOT NULL
        DO UPDATE SET count = e.count + 1, last_at = excluded.last_at`.catch(failed);
    },
  };
}

export type SecurityEvents = ReturnType<typeof securityEvents>;

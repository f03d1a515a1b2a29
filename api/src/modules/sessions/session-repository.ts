import { Prisma } from '../../generated/prisma/client.ts';
import type { Db, SqlWriter } from '../../plugins/prisma.ts';
import { PASSWORD_FINGERPRINT_SQL } from '../accounts/passwords.ts';
import { countHit } from '../security/counters.ts';

/** The window a session's refreshes are counted in. */
export const REFRESH_WINDOW_MS = 60 * 60 * 1000;
/** Rows the purge deletes a statement at a time: each commits, so no backlog outlasts the statement time limit. */
const PURGE_BATCH = 5_000;

export type Audience = 'client' | 'employee';

const fingerprintSql = Prisma.raw(PASSWORD_FINGERPRINT_SQL);

type Lifetimes = { idleSeconds: number; absoluteSeconds: number };
/** The account's sessions live at `now`: not ended, within both lifetimes (as endedBecause judges one). */
const liveFamiliesOf = (audience: Audience, subjectId: number, lifetimes: Lifetimes, now: Date) => ({
  audience,
  subjectId,
  revokedAt: null,
  startedAt: { gte: new Date(now.getTime() - lifetimes.absoluteSeconds * 1000) },
  lastActiveAt: { gte: new Date(now.getTime() - lifetimes.idleSeconds * 1000) },
});

/** A session about to start: its id, its account, and what it is signed in from (device.ts). */
type NewFamily = { id: string; subjectId: number; device: string | null };

const familySelect = {
  id: true,
  audience: true,
  subjectId: true,
  startedAt: true,
  lastActiveAt: true,
  revokedAt: true,
  generation: true,
} as const;

type NewToken = {
  id: string;
  familyId: string;
  audience: Audience;
  subjectId: number;
  tokenHash: string;
  expiresAt: Date;
  /** The session's generation it is issued in. */
  generation: number;
};

/**
 * A family as it was, and its activity mark (at most once a minute, so a busy session does not write
 * on every call) when it is still live: $2 audience, $3 idle and $4 absolute lifetime in seconds, $5
 * the moment of the check, $6 the access token's generation (a token the session has renewed since
 * keeps nothing alive). The caller judges the row against the same $5 and $6, so the statement and the
 * caller never disagree on whether the session is live (an idle session must not be touched back to
 * life). The check every signed-in call makes, in one round trip. Timestamps are UTC without time
 * zone, as Prisma keeps them.
 */
export const FAMILY_WITH_ACTIVITY_SQL = `
  WITH family AS (
    SELECT id, audience::text, subject_id, started_at, last_active_at, revoked_at, generation FROM session_families WHERE id = $1::uuid
  ), touched AS (
    UPDATE session_families s SET last_active_at = $5::timestamptz AT TIME ZONE 'UTC'
    FROM family f
    WHERE s.id = f.id AND f.audience = $2 AND f.revoked_at IS NULL AND f.generation = $6::int
      AND f.last_active_at < $5::timestamptz AT TIME ZONE 'UTC' - interval '1 minute'
      AND f.last_active_at >= $5::timestamptz AT TIME ZONE 'UTC' - make_interval(secs => $3)
      AND f.started_at >= $5::timestamptz AT TIME ZONE 'UTC' - make_interval(secs => $4)
  )
  SELECT id, audience, subject_id AS "subjectId", started_at AT TIME ZONE 'UTC' AS "startedAt",
         last_active_at AT TIME ZONE 'UTC' AS "lastActiveAt", revoked_at AT TIME ZONE 'UTC' AS "revokedAt", generation
  FROM family`;

/**
 * The purge's first statement, $1 rows at most: refresh tokens expired, or spent a day ago. Each
 * condition has its index (expires_at; used_at where set), which the planner ORs.
 */
export const PURGE_TOKENS_SQL = `
  DELETE FROM refresh_tokens WHERE id IN (
    SELECT id FROM refresh_tokens WHERE expires_at < now() OR used_at < now() - interval '1 day' LIMIT $1)`;

/**
 * The purge's second: $2 sessions at most, revoked a day ago or started $1 seconds (every lifetime)
 * and a day ago, and their tokens, read by family (a list of the sessions, which the planner looks up
 * in the family's index however many there are; a join of thousands scanned every token). A token
 * stored while its session went (a rotation racing the purge) is left to its expiry, as a token of a
 * session that no longer exists answers nothing. Counts the sessions.
 */
export const PURGE_SESSIONS_SQL = `
  WITH gone AS (
    DELETE FROM session_families WHERE id IN (
      SELECT id FROM session_families
      WHERE revoked_at < now() - interval '1 day' OR started_at < now() - make_interval(secs => $1) - interval '1 day'
      LIMIT $2)
    RETURNING id
  ), tokens AS (DELETE FROM refresh_tokens WHERE family_id = ANY (ARRAY(SELECT id FROM gone)))
  SELECT count(*)::int AS families FROM gone`;

/** The employee's role, read on every back-office call (a changed or deleted employee loses access at once). */
export const EMPLOYEE_ROLE_SQL = 'SELECT role::text AS role FROM employees WHERE id = $1';

/**
 * Ends the account's live sessions but `exceptFamilyId`'s, on `db` or in the transaction of the change
 * that ends them (a new password, a factor added or removed, new recovery codes, the account deleted), so
 * both land or neither.
 */
export const endSessions = (
  client: Pick<Prisma.TransactionClient, 'sessionFamily'>,
  audience: Audience,
  subjectId: number,
  exceptFamilyId?: string | null,
) =>
  client.sessionFamily.updateMany({
    where: { audience, subjectId, revokedAt: null, ...(exceptFamilyId ? { id: { not: exceptFamilyId } } : {}) },
    data: { revokedAt: new Date() },
  });

/**
 * The session that made a change of how its account signs in (a new password, a factor enrolled): it
 * stays while the account's others end, and `renew` renews its tokens in the change's transaction
 * (session-service's renewal), so both land or neither.
 */
export type KeptSession = { sessionId: string; renew: (tx: Prisma.TransactionClient) => Promise<void> };

/**
 * The account's row, locked first by every change that ends some of its sessions and may run beside one
 * that renews another (renewFamilyIn after endSessions: a new password, a factor enrolled; a new password
 * writes the row itself): they take turns, where each would otherwise hold a session row the other
 * waits for (a deadlock, which PostgreSQL ends by refusing one).
 */
export const lockAccount = (tx: Prisma.TransactionClient, audience: Audience, subjectId: number) =>
  audience === 'client'
    ? tx.$executeRaw`SELECT 1 FROM clients WHERE id = ${subjectId} FOR NO KEY UPDATE`
    : tx.$executeRaw`SELECT 1 FROM employees WHERE id = ${subjectId} FOR NO KEY UPDATE`;

/** A renewed session's one refresh token (renewFamilyIn): the session's own columns are filled in. */
type RenewedToken = Omit<NewToken, 'familyId' | 'audience' | 'subjectId' | 'generation'>;

/**
 * The session's next generation, with `token` its one refresh token, in `tx` (its own, or the change's
 * it goes with: a new password): every token of the session's still unexpired (spent ones too, which
 * would otherwise answer with their successor for the reuse interval) expires now, and access tokens
 * of earlier generations are refused by the check every call makes. With `secondFactorAt`, the second
 * factor the renewal is for is marked in the same write. The session's starting time (its absolute
 * lifetime) is kept. Only from `generation`, the one the asking request's token is of: 'ended' when the
 * session has ended meanwhile, 'renewed meanwhile' when another request renewed it. The family's row is updated first: a
 * rotation holds it shared until it commits (`spend`), so either the rotation's successor is stored
 * before, and expires here, or the rotation sees the new generation and stores nothing.
 */
export async function renewFamilyIn(
  tx: Prisma.TransactionClient,
  { id: familyId, audience, generation }: { id: string; audience: Audience; generation: number },
  token: RenewedToken,
  secondFactorAt?: Date,
) {
  const { count } = await tx.sessionFamily.updateMany({
    where: { id: familyId, audience, revokedAt: null, generation },
    data: { generation: { increment: 1 }, ...(secondFactorAt ? { secondFactorAt } : {}) },
  });
  if (count !== 1) {
    const now = await tx.sessionFamily.findUnique({ where: { id: familyId }, select: { revokedAt: true, generation: true } });
    return now && !now.revokedAt && now.generation !== generation ? ('renewed meanwhile' as const) : ('ended' as const);
  }
  const family = await tx.sessionFamily.findUniqueOrThrow({ where: { id: familyId }, select: { subjectId: true, generation: true } });
  const now = new Date();
  await tx.refreshToken.updateMany({ where: { familyId, expiresAt: { gt: now } }, data: { expiresAt: now } });
  await tx.refreshToken.create({
    data: { ...token, familyId, audience, subjectId: family.subjectId, generation: family.generation },
    select: { id: true },
  });
  return family;
}

export function sessionRepository(db: Db, sql: SqlWriter) {
  return {
    employeeRole: async (id: number) => (await sql.query<{ role: 'Admin' | 'Seller' }>(EMPLOYEE_ROLE_SQL, [id]))[0] ?? null,

    /**
     * A new session, and the account's sessions beyond `keep` gone (their refresh tokens go with the
     * same statement): a loop of sign-ins, each a session kept a month, holds `keep` rows. Those kept are
     * the ones still open, most recently used first; ended ones (signed out, revoked) go first. With
     * `whilePassword`, the fingerprint of a password hash (passwords.ts), only while that is the
     * account's hash (false when it no longer is).
     */
    async startFamily(family: NewFamily & { audience: Audience }, keep: number, whilePassword?: string) {
      if (whilePassword === undefined) await db.sessionFamily.create({ data: family, select: { id: true } });
      else {
        // FOR SHARE waits for a reset's or a change's transaction holding the account's row, then
        // reads the row as it committed: a new hash means no session.
        const { id, subjectId, device } = family;
        const started =
          family.audience === 'client'
            ? await db.$executeRaw`
                INSERT INTO session_families (id, audience, subject_id, device) SELECT ${id}::uuid, 'client', ${subjectId}, ${device}
                WHERE EXISTS (SELECT 1 FROM clients WHERE id = ${subjectId} AND ${fingerprintSql} = ${whilePassword} FOR SHARE)`
            : await db.$executeRaw`
                INSERT INTO session_families (id, audience, subject_id, device) SELECT ${id}::uuid, 'employee', ${subjectId}, ${device}
                WHERE EXISTS (SELECT 1 FROM employees WHERE id = ${subjectId} AND ${fingerprintSql} = ${whilePassword} FOR SHARE)`;
        if (started === 0) return false;
      }
      await db.$executeRaw`
        WITH gone AS (
          DELETE FROM session_families WHERE id IN (
            SELECT id FROM session_families
            WHERE audience = ${family.audience}::"SessionAudience" AND subject_id = ${family.subjectId}
            ORDER BY revoked_at IS NULL DESC, last_active_at DESC, started_at DESC, id OFFSET ${keep})
          RETURNING id)
        DELETE FROM refresh_tokens WHERE family_id = ANY (ARRAY(SELECT id FROM gone))`;
      return true;
    },

    /**
     * A new client's first session, only while the client has none: two sends of one sign-up at once
     * (its answer lost, and sent again) start one. The client's row, locked first, makes the second
     * wait for the first's commit, and its check, a statement after the wait, then sees that session.
     */
    startFirstClientFamily: (family: NewFamily) =>
      db.$transaction(async (tx) => {
        await tx.$queryRaw`SELECT 1 FROM clients WHERE id = ${family.subjectId} FOR NO KEY UPDATE`;
        const started = await tx.$executeRaw`
          INSERT INTO session_families (id, audience, subject_id, device) SELECT ${family.id}::uuid, 'client', ${family.subjectId}, ${family.device}
          WHERE NOT EXISTS (SELECT 1 FROM session_families WHERE audience = 'client' AND subject_id = ${family.subjectId})`;
        return started === 1;
      }),

    findFamily: (id: string) => db.sessionFamily.findUnique({ where: { id }, select: familySelect }),
    /** Counts one refresh of the session, shared by every instance: its refreshes in the window, and the time left of it. */
    countRefresh: (familyId: string) => countHit(db, `refresh:${familyId}`, REFRESH_WINDOW_MS),

    findFamilyAndMarkActivity: async (id: string, audience: Audience, lifetimes: Lifetimes, now: Date, generation: number) =>
      (
        await sql.query<{
          id: string;
          audience: Audience;
          subjectId: number;
          startedAt: Date;
          lastActiveAt: Date;
          revokedAt: Date | null;
          generation: number;
        }>(FAMILY_WITH_ACTIVITY_SQL, [id, audience, lifetimes.idleSeconds, lifetimes.absoluteSeconds, now, generation])
      )[0] ?? null,

    insert(token: NewToken) {
      return db.refreshToken.create({ data: token, select: { id: true } });
    },

    /** Runs `work` in a transaction of its own: a renewal (renewFamilyIn) that goes with no other change. */
    inTransaction: <T>(work: (tx: Prisma.TransactionClient) => Promise<T>) => db.$transaction(work),
    findByHash(tokenHash: string) {
      return db.refreshToken.findUnique({
        where: { tokenHash },
        select: { id: true, familyId: true, audience: true, subjectId: true, expiresAt: true, usedAt: true, generation: true },
      });
    },
    /**
     * Spends a token and stores its successor, both or neither; only if it was not spent already, so of
     * two concurrent uses exactly one wins. Both or neither: spent alone (the insert failing, the
     * process ending between them), the browser's retry of the same token within the reuse interval was
     * answered with a successor that was never stored, and its next refresh ended the session.
     */
    spend: (id: string, successor: NewToken) =>
      db.$transaction(async (tx): Promise<'spent' | 'renewed meanwhile' | false> => {
        // Shared, so two rotations do not wait on each other, and a renewal (renewFamilyIn) waits for
        // this one's commit, or this one for the renewal's, then reads the generation it wrote. The
        // successor is of the spent token's generation.
        const [family] = await tx.$queryRaw<{ generation: number }[]>`
          SELECT generation FROM session_families WHERE id = ${successor.familyId}::uuid FOR SHARE`;
        if (family?.generation !== successor.generation) return 'renewed meanwhile';
        const { count } = await tx.refreshToken.updateMany({
          where: { id, usedAt: null, expiresAt: { gt: new Date() } },
          data: { usedAt: new Date() },
        });
        if (count !== 1) return false;
        await tx.refreshToken.create({ data: successor, select: { id: true } });
        return 'spent';
      }),
    /**
     * The account's sessions still live at `now` (not ended, within both lifetimes), the most recently
     * used first: at most SESSIONS_PER_ACCOUNT exist, so the list is whole.
     */
    liveFamilies: (audience: Audience, subjectId: number, lifetimes: Lifetimes, now: Date) =>
      db.sessionFamily.findMany({
        where: liveFamiliesOf(audience, subjectId, lifetimes, now),
        orderBy: [{ lastActiveAt: 'desc' }, { startedAt: 'desc' }, { id: 'asc' }],
        select: { id: true, startedAt: true, lastActiveAt: true, device: true },
      }),
    /**
     * Ends those of `ids` that are the account's live sessions at `now`, never `keepFamilyId` (compared
     * by the database, as uuids: in any case of letters); counts them.
     */
    endLiveFamilies: (audience: Audience, subjectId: number, ids: string[], keepFamilyId: string, lifetimes: Lifetimes, now: Date) =>
      db.$transaction(async (tx) => {
        await lockAccount(tx, audience, subjectId);
        const { count } = await tx.sessionFamily.updateMany({
          where: { ...liveFamiliesOf(audience, subjectId, lifetimes, now), id: { in: ids, not: keepFamilyId } },
          data: { revokedAt: now },
        });
        return count;
      }),
    /** Ends the session; given a token's `generation`, only while its tokens are of it (not renewed since). */
    revokeFamily: (id: string, generation?: number) =>
      db.sessionFamily.updateMany({
        where: { id, revokedAt: null, ...(generation === undefined ? {} : { generation }) },
        data: { revokedAt: new Date() },
      }),
    /**
     * Deletes what can no longer be used: tokens expired or spent a day ago (a day of theft
     * detection for spent ones), then sessions revoked or past every lifetime a day ago with their
     * tokens. Each statement reads its rows through an index (a session's tokens by its family), so a
     * batch costs what it deletes, not a scan of every session's tokens.
     */
    async purge(longestLifetimeSeconds: number) {
      const inBatches = async (remove: () => Promise<number>) => {
        while ((await remove()) === PURGE_BATCH);
      };
      await inBatches(() => db.$executeRawUnsafe(PURGE_TOKENS_SQL, PURGE_BATCH));
      await inBatches(async () => {
        const [{ families }] = await db.$queryRawUnsafe<[{ families: number }]>(PURGE_SESSIONS_SQL, longestLifetimeSeconds, PURGE_BATCH);
        return families;
      });
    },
  };
}

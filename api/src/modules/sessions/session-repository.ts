import type { Db } from '../../plugins/prisma.ts';

export type Audience = 'client' | 'employee';

const familySelect = { id: true, audience: true, subjectId: true, startedAt: true, lastActiveAt: true, revokedAt: true } as const;

export function sessionRepository(db: Db) {
  return {
    startFamily: (family: { id: string; audience: Audience; subjectId: number }) =>
      db.sessionFamily.create({ data: family, select: { id: true } }),

    findFamily: (id: string) => db.sessionFamily.findUnique({ where: { id }, select: familySelect }),

    /** Records activity at most once a minute, so a busy session does not write on every call. */
    touchFamily: (id: string) =>
      db.$executeRaw`UPDATE session_families SET last_active_at = now() WHERE id = ${id}::uuid AND last_active_at < now() - interval '1 minute'`,

    insert(token: { id: string; familyId: string; audience: Audience; subjectId: number; tokenHash: string; expiresAt: Date }) {
      return db.refreshToken.create({ data: token, select: { id: true } });
    },
    findByHash(tokenHash: string) {
      return db.refreshToken.findUnique({
        where: { tokenHash },
        select: { id: true, familyId: true, audience: true, subjectId: true, expiresAt: true, usedAt: true },
      });
    },
    /** Marks a token spent only if it was not already: of two concurrent uses exactly one wins. */
    async markUsed(id: string): Promise<boolean> {
      const { count } = await db.refreshToken.updateMany({ where: { id, usedAt: null }, data: { usedAt: new Date() } });
      return count === 1;
    },
    revokeFamily: (id: string) => db.sessionFamily.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: new Date() } }),
    revokeSubject(audience: Audience, subjectId: number, exceptFamilyId?: string) {
      return db.sessionFamily.updateMany({
        where: { audience, subjectId, revokedAt: null, ...(exceptFamilyId ? { id: { not: exceptFamilyId } } : {}) },
        data: { revokedAt: new Date() },
      });
    },
    /**
     * Deletes what can no longer be used: tokens expired or spent a day ago (a day of theft
     * detection for spent ones), and sessions revoked or past every lifetime a day ago with their tokens.
     */
    async purge(longestLifetimeSeconds: number) {
      await db.$executeRaw`
        DELETE FROM session_families
        WHERE revoked_at < now() - interval '1 day'
           OR started_at < now() - (${longestLifetimeSeconds} * interval '1 second') - interval '1 day'`;
      await db.$executeRaw`
        DELETE FROM refresh_tokens rt
        WHERE rt.expires_at < now() OR rt.used_at < now() - interval '1 day'
           OR NOT EXISTS (SELECT 1 FROM session_families f WHERE f.id = rt.family_id)`;
    },
  };
}

import type { Db } from '../../plugins/prisma.ts';

export type Audience = 'client' | 'employee';

export function sessionRepository(db: Db) {
  return {
    insert(token: { id: string; familyId: string; audience: Audience; subjectId: number; tokenHash: string; expiresAt: Date }) {
      return db.refreshToken.create({ data: token, select: { id: true } });
    },
    findByHash(tokenHash: string) {
      return db.refreshToken.findUnique({
        where: { tokenHash },
        select: { id: true, familyId: true, audience: true, subjectId: true, expiresAt: true, usedAt: true, revokedAt: true },
      });
    },
    /** Marks a token spent only if it was not already: of two concurrent uses exactly one wins. */
    async markUsed(id: string): Promise<boolean> {
      const { count } = await db.refreshToken.updateMany({ where: { id, usedAt: null, revokedAt: null }, data: { usedAt: new Date() } });
      return count === 1;
    },
    revokeFamily(familyId: string) {
      return db.refreshToken.updateMany({ where: { familyId, revokedAt: null }, data: { revokedAt: new Date() } });
    },
    revokeSubject(audience: Audience, subjectId: number, exceptFamilyId?: string) {
      return db.refreshToken.updateMany({
        where: { audience, subjectId, revokedAt: null, ...(exceptFamilyId ? { familyId: { not: exceptFamilyId } } : {}) },
        data: { revokedAt: new Date() },
      });
    },
    async isFamilyRevoked(familyId: string): Promise<boolean> {
      const revoked = await db.refreshToken.findFirst({ where: { familyId, revokedAt: { not: null } }, select: { id: true } });
      return revoked !== null;
    },
  };
}

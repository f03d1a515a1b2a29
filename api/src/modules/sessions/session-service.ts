// Sessions: sign-in starts a token family; every refresh spends the presented token and issues the
// next one in the same family; presenting a spent token is taken as theft and revokes the family.
import { randomUUID } from 'node:crypto';
import { unauthorized } from '../../lib/errors.ts';
import type { Db } from '../../plugins/prisma.ts';
import { type Audience, sessionRepository } from './session-repository.ts';
import { type AccessClaims, hashToken, newRefreshToken, REFRESH_TOKEN_SECONDS, signAccessToken, verifyAccessToken } from './tokens.ts';

export interface IssuedSession {
  accessToken: string;
  refreshToken: string;
  subjectId: number;
  familyId: string;
}

export function sessionService(db: Db, secret: string) {
  const repo = sessionRepository(db);

  async function issue(audience: Audience, subjectId: number, familyId: string): Promise<IssuedSession> {
    const refreshToken = newRefreshToken();
    await repo.insert({
      id: randomUUID(),
      familyId,
      audience,
      subjectId,
      tokenHash: hashToken(refreshToken),
      expiresAt: new Date(Date.now() + REFRESH_TOKEN_SECONDS * 1000),
    });
    return { accessToken: signAccessToken(secret, { subjectId, familyId, audience }), refreshToken, subjectId, familyId };
  }

  return {
    start: (audience: Audience, subjectId: number) => issue(audience, subjectId, randomUUID()),

    async rotate(audience: Audience, presented: string | undefined): Promise<IssuedSession> {
      const expired = unauthorized('Your session has expired. Please sign in again.');
      if (!presented) throw expired;
      const token = await repo.findByHash(hashToken(presented));
      if (!token || token.audience !== audience || token.revokedAt) throw expired;
      if (token.usedAt || !(await repo.markUsed(token.id))) {
        await repo.revokeFamily(token.familyId);
        throw expired;
      }
      if (token.expiresAt.getTime() <= Date.now()) throw expired;
      return issue(audience, token.subjectId, token.familyId);
    },

    /** Verifies an access token and that its session was not signed out or revoked since. */
    async authenticate(audience: Audience, accessToken: string | undefined): Promise<AccessClaims> {
      if (!accessToken) throw unauthorized();
      const claims = verifyAccessToken(secret, accessToken, audience);
      if (await repo.isFamilyRevoked(claims.familyId)) throw unauthorized('Your session has ended. Please sign in again.');
      return claims;
    },

    async revokeByRefreshToken(presented: string | undefined) {
      if (!presented) return;
      const token = await repo.findByHash(hashToken(presented));
      if (token) await repo.revokeFamily(token.familyId);
    },

    revokeFamily: (familyId: string) => repo.revokeFamily(familyId),
    revokeOtherSessions: (audience: Audience, subjectId: number, keepFamilyId: string) =>
      repo.revokeSubject(audience, subjectId, keepFamilyId),
  };
}

export type SessionService = ReturnType<typeof sessionService>;

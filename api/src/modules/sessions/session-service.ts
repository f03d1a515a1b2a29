// Sessions: sign-in starts a token family; every refresh spends the presented token and issues the
// next one in the same family. Presenting a spent token again is taken as theft and revokes the
// family, except within a short reuse interval: two tabs (or React StrictMode) refreshing at once
// with the same token both get the same new session. That works without storing any token: the
// successor is an HMAC of the presented token under the server secret, so only its holder can
// have it re-derived, and the database still keeps hashes only.
import { createHmac, randomUUID } from 'node:crypto';
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

/** How long after a rotation the spent token still answers with the same new session. */
export const REFRESH_REUSE_INTERVAL_SECONDS = 30;

export function sessionService(db: Db, secret: string) {
  const repo = sessionRepository(db);
  const successorOf = (presented: string) => createHmac('sha256', secret).update(`refresh-successor:${presented}`).digest('base64url');
  const signAccess = (audience: Audience, subjectId: number, familyId: string) =>
    signAccessToken(secret, { subjectId, familyId, audience });

  async function issue(audience: Audience, subjectId: number, familyId: string, refreshToken = newRefreshToken()): Promise<IssuedSession> {
    await repo.insert({
      id: randomUUID(),
      familyId,
      audience,
      subjectId,
      tokenHash: hashToken(refreshToken),
      expiresAt: new Date(Date.now() + REFRESH_TOKEN_SECONDS * 1000),
    });
    return { accessToken: signAccess(audience, subjectId, familyId), refreshToken, subjectId, familyId };
  }

  return {
    start: (audience: Audience, subjectId: number) => issue(audience, subjectId, randomUUID()),

    async rotate(audience: Audience, presented: string | undefined): Promise<IssuedSession> {
      const expired = unauthorized('Your session has expired. Please sign in again.');
      if (!presented) throw expired;
      const token = await repo.findByHash(hashToken(presented));
      if (!token || token.audience !== audience || token.revokedAt) throw expired;
      if (token.expiresAt.getTime() <= Date.now()) throw expired;
      const successor = successorOf(presented);
      if (!token.usedAt && (await repo.markUsed(token.id))) return issue(audience, token.subjectId, token.familyId, successor);
      // Spent already, or a concurrent twin spent it a moment ago: within the interval this is the
      // same browser racing itself, answered with the session the winner got.
      const spentAt = token.usedAt?.getTime() ?? Date.now();
      if (Date.now() - spentAt <= REFRESH_REUSE_INTERVAL_SECONDS * 1000) {
        return {
          accessToken: signAccess(audience, token.subjectId, token.familyId),
          refreshToken: successor,
          subjectId: token.subjectId,
          familyId: token.familyId,
        };
      }
      await repo.revokeFamily(token.familyId);
      throw expired;
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

// Sessions: sign-in starts a session family; every refresh spends the presented refresh token and
// issues the next one in the same family. Presenting a spent token again is taken as theft and
// revokes the family, except within a short reuse interval: two tabs (or React StrictMode)
// refreshing at once with the same token both get the same new session. That works without storing
// any token: the successor is an HMAC of the presented token under the server secret, so only its
// holder can have it re-derived, and the database still keeps hashes only.
//
// A session ends at its absolute lifetime from sign-in, or after a time without activity. Activity
// is a signed-in call; a refresh is not, so the web app's 9-minute refresh timer cannot keep an
// abandoned session alive.
import { createHmac, randomUUID } from 'node:crypto';
import { unauthorized } from '../../lib/errors.ts';
import { refuse } from '../../lib/refusals.ts';
import type { SecurityEvents } from '../security/security-events.ts';
import { type Audience, type KeptSession, renewFamilyIn, type sessionRepository } from './session-repository.ts';
import { type AccessClaims, hashToken, newRefreshToken, REFRESH_TOKEN_SECONDS, signAccessToken, verifyAccessToken } from './tokens.ts';

export interface IssuedSession {
  accessToken: string;
  refreshToken: string;
  subjectId: number;
  familyId: string;
  /** When the refresh token (and so the session, unless it is refreshed) ends. */
  expiresAt: Date;
}

/**
 * Rotations one session may make in an hour (REFRESH_WINDOW_MS). The web app rotates every 9 minutes
 * and at each tab's load (a shopper opening books in new tabs): ten a minute, kept up for an hour,
 * is a loop filling refresh_tokens (a row each, kept a day for theft detection), refused without
 * ending the session.
 */
export const REFRESHES_PER_SESSION_HOUR = 600;

/** How long after a rotation the spent token still answers with the same new session. */
export const REFRESH_REUSE_INTERVAL_SECONDS = 30;

export const SESSION_LIFETIMES: Record<Audience, { absoluteSeconds: number; idleSeconds: number }> = {
  client: { absoluteSeconds: 30 * 24 * 60 * 60, idleSeconds: 7 * 24 * 60 * 60 },
  employee: { absoluteSeconds: 12 * 60 * 60, idleSeconds: 60 * 60 },
};
/**
 * Sessions one account keeps, however many browsers and devices it signs in from: past this, a new
 * one ends those already ended, then the least recently used. Far more than a person uses, and a
 * bound on the rows a loop of sign-ins leaves.
 */
export const SESSIONS_PER_ACCOUNT = 50;
const LONGEST_LIFETIME_SECONDS = Math.max(...Object.values(SESSION_LIFETIMES).map((l) => l.absoluteSeconds));

type Family = { id: string; audience: Audience; startedAt: Date; lastActiveAt: Date; revokedAt: Date | null; generation: number };

/**
 * Why a session can no longer be used, or null while it can; with `accessGeneration`, by an access
 * token of that generation (one from before the session's tokens were renewed is refused).
 */
export function endedBecause(family: Family | null, audience: Audience, now = Date.now(), accessGeneration?: number): string | null {
  if (!family || family.audience !== audience) return 'Your session has expired. Please sign in again.';
  if (family.revokedAt) return 'Your session has ended. Please sign in again.';
  if (accessGeneration !== undefined && accessGeneration !== family.generation) return 'Your session has ended. Please sign in again.';
  const { absoluteSeconds, idleSeconds } = SESSION_LIFETIMES[audience];
  if (now > family.startedAt.getTime() + absoluteSeconds * 1000) return 'Your session has expired. Please sign in again.';
  if (now > family.lastActiveAt.getTime() + idleSeconds * 1000) return 'You were away for a while. Please sign in again.';
  return null;
}

export function sessionService(repo: ReturnType<typeof sessionRepository>, secret: string, events: SecurityEvents) {
  const successorOf = (presented: string) => createHmac('sha256', secret).update(`refresh-successor:${presented}`).digest('base64url');
  const signAccess = (audience: Audience, subjectId: number, familyId: string, generation: number) =>
    signAccessToken(secret, { subjectId, familyId, audience, generation });
  const refreshExpiry = (audience: Audience, startedAt: Date) =>
    new Date(Math.min(Date.now() + REFRESH_TOKEN_SECONDS * 1000, startedAt.getTime() + SESSION_LIFETIMES[audience].absoluteSeconds * 1000));

  async function issue(audience: Audience, subjectId: number, family: { id: string; startedAt: Date }, refreshToken = newRefreshToken()) {
    const expiresAt = refreshExpiry(audience, family.startedAt);
    await repo.insert({
      id: randomUUID(),
      familyId: family.id,
      audience,
      subjectId,
      tokenHash: hashToken(refreshToken),
      expiresAt,
      generation: 0,
    });
    return { accessToken: signAccess(audience, subjectId, family.id, 0), refreshToken, subjectId, familyId: family.id, expiresAt };
  }

  /**
   * Checks an access token in two steps: its signature at once (a missing or forged token throws
   * here, before anything else of the request is read), then, in `live`, that its session exists,
   * is live, and was not signed out or revoked since (one statement, which also marks activity).
   */
  function startAuthentication(audience: Audience, accessToken: string | undefined): { claims: AccessClaims; live: Promise<void> } {
    if (!accessToken) throw unauthorized();
    const claims = verifyAccessToken(secret, accessToken, audience);
    const now = new Date();
    const live = repo
      .findFamilyAndMarkActivity(claims.familyId, audience, SESSION_LIFETIMES[audience], now, claims.generation)
      .then((family) => {
        const ended = endedBecause(family, audience, now.getTime(), claims.generation);
        if (ended) throw unauthorized(ended);
      });
    return { claims, live };
  }

  /**
   * New tokens for a live session, those it had ending (a re-authentication, ASVS 5.0 7.2.4): its
   * identity, activity, lifetime and what it is signed in from stay. `renew` writes it in the
   * transaction of the change it goes with (a new password, a factor enrolled: a KeptSession), so both
   * land or neither, and `renewAlone` in one of its own; `issued` gives the tokens after the commit.
   * With `secondFactorAt`, marks the second factor proved (second-factor.ts). `session` is the one
   * the request's access token is of: 401 when it ended, before or meanwhile; 409 RENEWED_MEANWHILE when
   * another request renewed it (of two at once, one renews, and the browser keeps the tokens that work).
   */
  async function renewal(
    audience: Audience,
    { familyId, generation: fromGeneration }: { familyId: string; generation: number },
    { secondFactorAt }: { secondFactorAt?: Date } = {},
  ) {
    const family = await repo.findFamily(familyId);
    const ended = endedBecause(family, audience);
    if (ended || !family) throw unauthorized(ended ?? undefined);
    // Before the proof is checked, so that one lost to another tab's renewal spends no code.
    if (family.generation !== fromGeneration) throw refuse.renewedMeanwhile();
    const refreshToken = newRefreshToken();
    const expiresAt = refreshExpiry(audience, family.startedAt);
    const token = { id: randomUUID(), tokenHash: hashToken(refreshToken), expiresAt };
    let renewed: { subjectId: number; generation: number } | null = null;
    const renew: KeptSession['renew'] = async (tx) => {
      const result = await renewFamilyIn(tx, { id: familyId, audience, generation: fromGeneration }, token, secondFactorAt);
      if (result === 'renewed meanwhile') throw refuse.renewedMeanwhile();
      if (result === 'ended') throw unauthorized('Your session has ended. Please sign in again.');
      renewed = result;
    };
    return {
      sessionId: familyId,
      renew,
      renewAlone: () => repo.inTransaction(renew),
      issued(): IssuedSession {
        if (!renewed) throw new Error('the renewal was never written');
        const { subjectId, generation } = renewed;
        return { accessToken: signAccess(audience, subjectId, familyId, generation), refreshToken, subjectId, familyId, expiresAt };
      },
    };
  }

  return {
    startAuthentication,

    /**
     * A new session. Given the fingerprint of the password hash a sign-in checked, it starts only while
     * that is still the account's: a reset or a change committed meanwhile (which ended every session
     * it found) refuses it with `refusal` (as a wrong password, by default), where it would otherwise
     * have been the one session left. `device` says what it is signed in from (device.ts).
     */
    async start(
      audience: Audience,
      subjectId: number,
      { device = null, checkedPassword }: { device?: string | null; checkedPassword?: string } = {},
      refusal = refuse.invalidLogin,
    ): Promise<IssuedSession> {
      const id = randomUUID();
      const started = await repo.startFamily({ id, audience, subjectId, device }, SESSIONS_PER_ACCOUNT, checkedPassword);
      if (!started) throw refusal();
      return issue(audience, subjectId, { id, startedAt: new Date() });
    },

    /** A new client's first session; `refusal` when another start of it won (sign-up sent twice at once). */
    async startFirst(subjectId: number, device: string | null, refusal: () => Error): Promise<IssuedSession> {
      const id = randomUUID();
      if (!(await repo.startFirstClientFamily({ id, subjectId, device }))) throw refusal();
      return issue('client', subjectId, { id, startedAt: new Date() });
    },

    async rotate(audience: Audience, presented: string | undefined, address?: string): Promise<IssuedSession> {
      const expired = unauthorized('Your session has expired. Please sign in again.');
      if (!presented) throw expired;
      const token = await repo.findByHash(hashToken(presented));
      if (!token || token.audience !== audience) throw expired;
      const family = await repo.findFamily(token.familyId);
      const ended = endedBecause(family, audience);
      // A token from before the live session's tokens were renewed (a step-up, an enrolment, a new password),
      // expired by the renewal or not yet (read just before it, or on an instance whose clock runs
      // behind): ended there, and said so, so that the browser's new cookies are left alone.
      if (family && !ended && token.generation !== family.generation) throw refuse.sessionRenewed();
      if (token.expiresAt.getTime() <= Date.now()) throw expired;
      if (ended || !family) throw unauthorized(ended ?? undefined);
      const successor = successorOf(presented);
      const expiresAt = refreshExpiry(audience, family.startedAt);
      const renewed = {
        accessToken: signAccess(audience, token.subjectId, family.id, token.generation),
        refreshToken: successor,
        subjectId: token.subjectId,
        familyId: family.id,
        expiresAt,
      };
      const successorRow = {
        id: randomUUID(),
        familyId: family.id,
        audience,
        subjectId: token.subjectId,
        tokenHash: hashToken(successor),
        expiresAt,
        generation: token.generation,
      };
      if (!token.usedAt) {
        // Only a rotation counts, never a spent token presented again: a thief who spent the limit
        // must not turn the owner's reuse of a spent token (the theft's sign, below) into a 429.
        const { hits, ttlMs } = await repo.countRefresh(family.id);
        if (hits > REFRESHES_PER_SESSION_HOUR) {
          await events.record({
            type: 'rate_limited',
            actor: `${audience}:${token.subjectId}`,
            address,
            details: { route: 'refresh-tokens' },
          });
          throw refuse.rateLimited('session refreshes', ttlMs);
        }
        const spent = await repo.spend(token.id, successorRow);
        if (spent === 'spent') return renewed;
        // The session's tokens were renewed while this one was being spent: it ended there.
        if (spent === 'renewed meanwhile') throw refuse.sessionRenewed();
      }
      // Spent already, or a concurrent twin spent it a moment ago: within the interval this is the
      // same browser racing itself (or retrying an answer it never got), answered with the session the
      // winner got, whose successor was stored with the spending.
      const spentAt = token.usedAt?.getTime() ?? Date.now();
      if (Date.now() - spentAt <= REFRESH_REUSE_INTERVAL_SECONDS * 1000) return renewed;
      await repo.revokeFamily(family.id);
      await events.record({
        type: 'refresh_token_reuse',
        actor: `${audience}:${token.subjectId}`,
        address,
        entity: 'session',
        entityId: family.id,
        details: { spentSecondsAgo: Math.round((Date.now() - spentAt) / 1000) },
      });
      throw expired;
    },

    renewal,

    /** Both steps of startAuthentication, awaited: the claims of a live session. */
    async authenticate(audience: Audience, accessToken: string | undefined): Promise<AccessClaims> {
      const { claims, live } = startAuthentication(audience, accessToken);
      await live;
      return claims;
    },

    async revokeByRefreshToken(presented: string | undefined) {
      if (!presented) return;
      const token = await repo.findByHash(hashToken(presented));
      // A token from before a renewal of the session's tokens signs nobody out: it is no longer theirs.
      if (token) await repo.revokeFamily(token.familyId, token.generation);
    },

    revokeFamily: (familyId: string) => repo.revokeFamily(familyId),

    /** The account's live sessions, the most recently used first; `current` marks `currentFamilyId`'s. */
    async live(audience: Audience, subjectId: number, currentFamilyId: string) {
      const families = await repo.liveFamilies(audience, subjectId, SESSION_LIFETIMES[audience], new Date());
      return families.map((family) => ({ ...family, current: family.id === currentFamilyId }));
    },
    /**
     * Ends those of `ids` that are the account's own live sessions, never the one asking
     * (`currentFamilyId`: signing out ends that); counts those ended.
     */
    endOwn: (audience: Audience, subjectId: number, ids: string[], currentFamilyId: string) =>
      repo.endLiveFamilies(audience, subjectId, ids, currentFamilyId, SESSION_LIFETIMES[audience], new Date()),
    purge: () => repo.purge(LONGEST_LIFETIME_SECONDS),
  };
}

export type SessionService = ReturnType<typeof sessionService>;
/** A session's renewal under way (SessionService's `renewal`). */
export type Renewal = Awaited<ReturnType<SessionService['renewal']>>;

// Staff second factor (issue 31): an authenticator app (TOTP) and passkeys (WebAuthn, through
// SimpleWebAuthn), with ten one-time recovery codes; the sign-in's second step, a passkey sign-in
// without the password, the step-up of the most sensitive actions, and an Admin's reset.
//
// Wrong codes count in the login throttle like wrong passwords, under counters of their own per
// employee (`second-factor:account:employee:<id>`), so the right password, which clears the password's
// counters, does not clear them; after ten in a window, or thirty in a day, the factor locks for every
// address. Security events name the method and the employee, never a code or a secret.
import { createHash, randomBytes } from 'node:crypto';
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { FastifyBaseLogger } from 'fastify';
import { unauthorized } from '../../lib/errors.ts';
import { refuse } from '../../lib/refusals.ts';
import type { SecurityEvents, SecurityEventType } from '../security/security-events.ts';
import type { CheckedSecret, LoginThrottle } from '../sessions/login-throttle.ts';
import type { KeptSession } from '../sessions/session-repository.ts';
import {
  acceptedTotpStep,
  looksLikeRecoveryCode,
  newRecoveryCodes,
  newTotpSecret,
  otpauthUrl,
  recoveryCodeHash,
  secretBox,
  TOTP_ISSUER,
} from './codes.ts';
import type { FactorRemoval, SecondFactorRepository } from './second-factor-repository.ts';

/** Where the browser's WebAuthn calls are bound: the shop's host name and origin. */
export interface RelyingParty {
  rpID: string;
  origin: string;
}
/** What proves the second factor: a code (the app's, or a recovery code) or a passkey's answer. */
export interface Proof {
  code?: string;
  passkey?: AuthenticationResponseJSON;
}
export type FactorMethod = 'totp' | 'passkey' | 'recovery_code';

/** How long the step between the password and the second factor, or a WebAuthn challenge, lasts. */
export const CHALLENGE_SECONDS = 5 * 60;
/** A spent passkey sign-in challenge is kept this long past its end (instances' clocks differ a little). */
const SPENT_KEPT_PAST_END_MS = 5 * 60_000;

/** How long a proved second factor opens the sensitive actions. */
export const STEP_UP_MINUTES = 10;
/**
 * Wrong step-up answers a session may give in a row: the last one ends it. They also count against the
 * factor, which locks for everyone after ten in a window or thirty in a day (login-throttle.ts); a
 * stolen session alone, ended at five, can no longer lock the owner out of signing in.
 */
export const STEP_UP_FAILURES_PER_SESSION = 5;
const STEP_UP_MS = STEP_UP_MINUTES * 60_000;

const tokenKey = (token: string) => createHash('sha256').update(token).digest('hex');
const employeeKey = (purpose: string, employeeId: number) => `${purpose}:employee:${employeeId}`;
/**
 * A step-up's passkey challenge, one per session: keyed by the employee, another session's request for
 * options (a thief's, or the owner's other tab) replaced it, and the passkey's answer was refused.
 */
const stepUpKey = (sessionId: string) => `step_up:session:${sessionId}`;
/** What a proof answers: the sign-in step a token names, or a step-up in a session. */
type ProofFor = { signInToken: string | undefined } | { session: string };
function challengeKey(of: ProofFor) {
  if ('session' in of) return stepUpKey(of.session);
  if (!of.signInToken) throw refuse.signInStepExpired();
  return tokenKey(of.signInToken);
}
const userHandle = (employeeId: number) => new TextEncoder().encode(`employee:${employeeId}`);

export function secondFactorService(
  repo: SecondFactorRepository,
  deps: { jwtSecret: string; events: SecurityEvents; throttle: LoginThrottle; log: Pick<FastifyBaseLogger, 'warn'> },
) {
  const box = secretBox(deps.jwtSecret);
  /**
   * A passkey sign-in without the password keeps its challenge in its own token, sealed, not in a row:
   * a stranger may ask for as many as the route's limit lets them and store nothing. Only a passkey's
   * verified answer writes one, to spend its challenge once (passkeySignIn).
   */
  const passkeySignInBox = secretBox(deps.jwtSecret, 'passkey-sign-in-v1');
  /** The challenge a passkey sign-in's token carries, while it lasts; null for a token not ours, or past its end. */
  function passkeySignInChallenge(token: string | undefined) {
    const sealed = token && passkeySignInBox.open(token);
    if (!sealed) return null;
    const { challenge, expiresAt } = JSON.parse(sealed) as { challenge: string; expiresAt: number };
    return expiresAt > Date.now() ? { challenge, expiresAt: new Date(expiresAt) } : null;
  }
  /**
   * The employee's confirmed authenticator secret, or null: none, or one sealed before JWT_SECRET was
   * changed, which no code can match. Then the app counts as not set up (the Account screen offers to
   * set it up again), and the employee proves who they are with a recovery code or a passkey meanwhile.
   */
  function appSecret(employeeId: number, sealed: string | null | undefined) {
    if (!sealed) return null;
    const secret = box.open(sealed);
    if (secret === null)
      deps.log.warn({ employeeId }, 'an authenticator secret sealed under another JWT_SECRET: the app must be set up again');
    return secret;
  }
  const { events, throttle } = deps;
  /**
   * The employee as the audit log names them, and whose failures a factor's throttle counters keep:
   * the employee, not their e-mail, which they may change in a session (three times a day), and which
   * would then start the window's and the day's counts afresh.
   */
  const actor = (employeeId: number) => `employee:${employeeId}`;
  const expiry = () => new Date(Date.now() + CHALLENGE_SECONDS * 1000);
  /**
   * A wrong factor's event, and the lock's when it locked what it answered: the factor (not the
   * password), or an authenticator app's setup.
   */
  const recordWrongFactor = async (
    email: string,
    address: string,
    details: Record<string, string>,
    { locked }: { locked: boolean },
    lock: Exclude<CheckedSecret, 'password'> = 'second-factor',
  ) => {
    await events.record({ type: 'second_factor_failed', actor: email, address, details });
    if (locked) await events.record({ type: 'login_locked', actor: `${lock}:${email}`, address, details: { limits: throttle.limits } });
  };

  async function factorsOf(employeeId: number) {
    const factors = await repo.factors(employeeId);
    if (!factors) throw refuse.signInStepExpired();
    return factors;
  }

  /** New recovery codes: the plain codes, returned once, and the hashes, the only form kept. */
  function newCodes() {
    const codes = newRecoveryCodes();
    return { codes, hashes: codes.map(recoveryCodeHash) };
  }

  /**
   * Removes what `removal` names, and with it ends the employee's sessions but `keepSessionId` (null:
   * all), or refuses when no Admin would have a second factor left; false when there was none such.
   */
  async function removeKeepingAnAdminFactor(employeeId: number, removal: FactorRemoval, keepSessionId: string | null) {
    const removed = await repo.removeKeepingAnAdminFactor(employeeId, removal, keepSessionId);
    if (removed === 'last') throw refuse.lastAdminSecondFactor();
    return removed;
  }

  /** An event about an employee's second factor, by them unless `by` names another (an Admin's reset). */
  const recordAbout = (type: SecurityEventType, employeeId: number, address: string, details?: Record<string, unknown>, by = employeeId) =>
    events.record({ type, actor: actor(by), address, entity: 'Employee', entityId: employeeId, details });

  /** Checks a proof against the employee's factors; the method it used, or null when it is wrong. */
  async function check(
    employeeId: number,
    proof: Proof,
    challengeKey: string,
    rp: RelyingParty,
    address: string,
  ): Promise<FactorMethod | null> {
    const factors = await factorsOf(employeeId);
    if (proof.passkey) {
      const challenge = await repo.findChallenge(challengeKey);
      if (!challenge?.webauthn || challenge.employeeId !== employeeId || challenge.expiresAt.getTime() < Date.now()) return null;
      const passkey = await repo.passkeyByCredential(proof.passkey.id);
      if (!passkey || passkey.employeeId !== employeeId) return null;
      return (await verifyPasskey(passkey, proof.passkey, challenge.webauthn, rp)) ? 'passkey' : null;
    }
    const code = proof.code?.trim() ?? '';
    if (!code) return null;
    if (looksLikeRecoveryCode(code)) {
      if (!(await repo.spendRecoveryCode(employeeId, recoveryCodeHash(code)))) return null;
      await recordAbout('recovery_code_used', employeeId, address, { left: (await factorsOf(employeeId)).recoveryCodesLeft });
      return 'recovery_code';
    }
    const secret = appSecret(employeeId, factors.totp?.secret);
    if (secret === null) return null;
    const step = acceptedTotpStep(secret, code, Number(factors.totp?.lastStep));
    return step !== null && (await repo.spendTotpStep(employeeId, step)) ? 'totp' : null;
  }

  async function verifyPasskey(
    passkey: NonNullable<Awaited<ReturnType<typeof repo.passkeyByCredential>>>,
    response: AuthenticationResponseJSON,
    expectedChallenge: string,
    rp: RelyingParty,
    requireUserVerification = false,
  ): Promise<boolean> {
    let checked: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
    try {
      checked = await verifyAuthenticationResponse({
        response,
        expectedChallenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.rpID,
        credential: {
          id: passkey.credentialId,
          publicKey: new Uint8Array(passkey.publicKey),
          counter: Number(passkey.counter),
          transports: passkey.transports as never,
        },
        requireUserVerification,
      });
    } catch {
      return false; // a malformed answer, or one that is not this passkey's
    }
    // Outside the try: the database's failure to record it is an outage (503), not a wrong answer.
    return checked.verified && (await repo.passkeyUsed(passkey.id, checked.authenticationInfo.newCounter));
  }

  return {
    /** What the employee has set up, for their Account screen (never a secret). */
    async status(employeeId: number) {
      const factors = await factorsOf(employeeId);
      return {
        totp: appSecret(employeeId, factors.totp?.secret) !== null,
        passkeys: factors.passkeys.map((p) => ({
          id: p.id,
          name: p.name,
          createdAt: p.createdAt.toISOString(),
          lastUsedAt: p.lastUsedAt?.toISOString() ?? null,
        })),
        recoveryCodesLeft: factors.recoveryCodesLeft,
      };
    },

    hasFactor: (employeeId: number) => repo.hasFactor(employeeId),

    /** A new authenticator secret, pending until its first code; a confirmed app stays in use meanwhile. */
    async startTotp(employeeId: number) {
      const factors = await factorsOf(employeeId);
      const secret = newTotpSecret();
      await repo.setPendingTotp(employeeId, box.seal(secret));
      return { secret, otpauthUrl: otpauthUrl(secret, factors.email), issuer: TOTP_ISSUER };
    },

    /**
     * The first code makes the pending secret the app's. The first factor also brings the recovery
     * codes, shown once. The employee's sessions but `keep`'s end with it, and `keep`'s tokens are
     * renewed (the code proved the app: a re-authentication), all in one transaction. Wrong codes are
     * throttled as a sign-in's are, on counters of the setup's own (throws 429 past the limits): three
     * codes in a million are right at any moment, so a stolen session guessing without end would make
     * the owner's pending app its own, with the recovery codes.
     */
    async confirmTotp(employeeId: number, code: string, address: string, keep: KeptSession) {
      const factors = await factorsOf(employeeId);
      const secret = factors.totp?.pendingSecret ? box.open(factors.totp.pendingSecret) : null;
      // One started before JWT_SECRET was changed cannot be read: it is started again.
      if (!factors.totp?.pendingSecret || secret === null) throw refuse.noPendingTotpSetup();
      const attempt = await throttle.reserve(actor(employeeId), address, 'app-setup');
      let step: number | null;
      try {
        step = acceptedTotpStep(secret, code, 0);
      } catch (error) {
        await attempt.release();
        throw error;
      }
      if (step === null) {
        await recordWrongFactor(factors.email, address, { method: 'totp', stage: 'setup' }, await attempt.failed(), 'app-setup');
        throw refuse.wrongSetupCode();
      }
      await attempt.succeeded();
      const recovery = factors.hasFactor ? null : newCodes();
      await repo.confirmTotp(employeeId, factors.totp.pendingSecret, step, recovery?.hashes ?? null, keep);
      await recordAbout('second_factor_enrolled', employeeId, address, { method: 'totp' });
      return { recoveryCodes: recovery?.codes ?? null };
    },

    /** Removes the employee's app; their other sessions end with it (the one `keepSessionId` names stays). */
    async removeTotp(employeeId: number, address: string, keepSessionId: string) {
      const factors = await factorsOf(employeeId);
      if (!factors.totp?.secret && !factors.totp?.pendingSecret) throw refuse.noSecondFactor();
      const removed = await removeKeepingAnAdminFactor(employeeId, 'app', keepSessionId);
      if (removed) await recordAbout('second_factor_removed', employeeId, address, { method: 'totp' });
    },

    /** Options for the browser to create a passkey (a discoverable one, so it can sign in without the password). */
    async passkeyRegistrationOptions(employeeId: number, rp: RelyingParty) {
      const factors = await factorsOf(employeeId);
      const existing = await repo.passkeysForSignIn(employeeId);
      const options = await generateRegistrationOptions({
        rpName: TOTP_ISSUER,
        rpID: rp.rpID,
        userName: factors.email,
        userID: userHandle(employeeId),
        attestationType: 'none',
        excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
        authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
      });
      await repo.putChallenge({
        key: employeeKey('passkey_register', employeeId),
        purpose: 'passkey_register',
        employeeId,
        webauthn: options.challenge,
        expiresAt: expiry(),
      });
      return options;
    },

    /**
     * Registers a passkey (with the first factor's recovery codes); the employee's sessions but `keep`'s
     * end with it, and `keep`'s tokens are renewed, in one transaction.
     */
    async registerPasskey(
      employeeId: number,
      name: string,
      response: RegistrationResponseJSON,
      rp: RelyingParty,
      address: string,
      keep: KeptSession,
    ) {
      const key = employeeKey('passkey_register', employeeId);
      const challenge = await repo.findChallenge(key);
      if (!challenge?.webauthn || challenge.expiresAt.getTime() < Date.now()) throw refuse.passkeyNotRegistered();
      const hadFactor = await repo.hasFactor(employeeId);
      const verification = await verifyRegistrationResponse({
        response,
        expectedChallenge: challenge.webauthn,
        expectedOrigin: rp.origin,
        expectedRPID: rp.rpID,
        requireUserVerification: false,
      }).catch(() => null);
      if (!verification?.verified) throw refuse.passkeyNotRegistered();
      // Used once, by an answer to it: taken only now, so an answer that is no passkey's (another
      // session's, say) leaves it for the owner's passkey being made. Of two right answers, one wins.
      if (!(await repo.takeChallenge(key, challenge.webauthn))) throw refuse.passkeyNotRegistered();
      const { credential } = verification.registrationInfo;
      const recovery = hadFactor ? null : newCodes();
      const passkey = await repo.addPasskey(
        {
          employeeId,
          credentialId: credential.id,
          publicKey: credential.publicKey,
          counter: credential.counter,
          transports: credential.transports ?? [],
          name: name.trim() || 'Passkey',
        },
        recovery?.hashes ?? null,
        keep,
      );
      await recordAbout('second_factor_enrolled', employeeId, address, { method: 'passkey', passkeyId: passkey.id });
      return {
        passkey: { id: passkey.id, name: passkey.name, createdAt: passkey.createdAt.toISOString(), lastUsedAt: null },
        recoveryCodes: recovery?.codes ?? null,
      };
    },

    async renamePasskey(employeeId: number, id: number, name: string) {
      if (!(await repo.renamePasskey(employeeId, id, name.trim() || 'Passkey'))) throw refuse.noPasskey();
    },

    /** Removes one of the employee's passkeys; their other sessions end with it. */
    async removePasskey(employeeId: number, id: number, address: string, keepSessionId: string) {
      if (!(await removeKeepingAnAdminFactor(employeeId, { passkeyId: id }, keepSessionId))) throw refuse.noPasskey();
      await recordAbout('second_factor_removed', employeeId, address, { method: 'passkey' });
    },

    /** Ten new recovery codes in place of the old ones (which stop working); the sessions but `keepSessionId` end. */
    async renewRecoveryCodes(employeeId: number, address: string, keepSessionId: string) {
      if (!(await repo.hasFactor(employeeId))) throw refuse.noSecondFactor();
      const { codes, hashes } = newCodes();
      await repo.replaceRecoveryCodes(employeeId, hashes, keepSessionId);
      await recordAbout('recovery_codes_renewed', employeeId, address);
      return codes;
    },

    /** An Admin's reset of another employee's second factor: every factor and code goes, and their sessions end. */
    async reset(adminId: number, employeeId: number, address: string) {
      if (adminId === employeeId) throw refuse.resetOwnSecondFactor();
      const factors = await repo.factors(employeeId);
      if (!factors) throw refuse.noSecondFactor();
      if (!factors.hasFactor && !factors.totp) throw refuse.noSecondFactor();
      await removeKeepingAnAdminFactor(employeeId, 'all', null);
      // The factor they enrol next starts with no failures of the old one's against it.
      await throttle.forgetAccount(actor(employeeId), 'second-factor');
      await throttle.forgetAccount(actor(employeeId), 'app-setup');
      await recordAbout('second_factor_reset', employeeId, address, undefined, adminId);
    },

    // The sign-in's second step: a single-purpose token the browser holds (a cookie), good for a
    // few minutes, which answers nothing of the back-office; only the second-factor routes take it.

    /**
     * After a right password: the token that lets this browser give the second factor. The step keeps
     * which password was checked (its hash's fingerprint), for the session it ends in.
     */
    async openSignIn(employeeId: number, passwordFingerprint: string) {
      const token = randomBytes(32).toString('base64url');
      const key = tokenKey(token);
      await repo.putChallenge({ key, purpose: 'second_factor', employeeId, webauthn: null, passwordFingerprint, expiresAt: expiry() });
      return token;
    },

    /**
     * The employee a live sign-in token stands for, and the fingerprint of the password their first
     * step checked, while that is still their password; or 401. Checked here too, before a code is
     * spent on a sign-in that cannot end in a session (the session's start checks it again, for a
     * change that lands meanwhile). A step without a fingerprint (opened before it was kept) has
     * ended: signing in again takes a moment.
     */
    async signInStep(token: string | undefined) {
      const challenge = token ? await repo.findChallenge(tokenKey(token)) : null;
      if (
        challenge?.purpose !== 'second_factor' ||
        !challenge.employeeId ||
        !challenge.passwordFingerprint ||
        challenge.expiresAt.getTime() < Date.now() ||
        !(await repo.passwordIs(challenge.employeeId, challenge.passwordFingerprint))
      ) {
        throw refuse.signInStepExpired();
      }
      return { employeeId: challenge.employeeId, passwordFingerprint: challenge.passwordFingerprint };
    },

    /**
     * What the employee can answer with, and a passkey challenge when they have one: bound to the
     * sign-in token, or to the session for a step-up.
     */
    async proofOptions(employeeId: number, rp: RelyingParty, proofFor: ProofFor) {
      const factors = await factorsOf(employeeId);
      const key = challengeKey(proofFor);
      const signInToken = 'signInToken' in proofFor;
      let passkey = null;
      if (factors.passkeys.length) {
        passkey = await generateAuthenticationOptions({
          rpID: rp.rpID,
          allowCredentials: (await repo.passkeysForSignIn(employeeId)).map((p) => ({
            id: p.credentialId,
            transports: p.transports as never,
          })),
          userVerification: 'preferred',
        });
        // The sign-in step's row gets its passkey challenge only while it is there and live, keeping its
        // end and its password: written as a new row, an answer that spent the step meanwhile left a
        // step alive again, with no password to check (a second sign-in from one password step).
        if (signInToken) {
          if (!(await repo.setSignInStepPasskeyChallenge(key, passkey.challenge))) throw refuse.signInStepExpired();
        } else await repo.putChallenge({ key, purpose: 'step_up', employeeId, webauthn: passkey.challenge, expiresAt: expiry() });
      }
      return { totp: appSecret(employeeId, factors.totp?.secret) !== null, recoveryCodes: factors.recoveryCodesLeft > 0, passkey };
    },

    /**
     * Checks a second factor under the login throttle; throws 400 (wrong) or 429 (too many). Either
     * `signInToken` names the sign-in step it answers, or `session` the session a step-up is for,
     * which also counts its own wrong answers and ends at the last (401).
     */
    async prove(employeeId: number, proof: Proof, ctx: { rp: RelyingParty; address: string } & ProofFor) {
      const factors = await factorsOf(employeeId);
      if (!factors.hasFactor) throw refuse.noSecondFactor();
      const key = challengeKey(ctx);
      const session = 'session' in ctx ? ctx.session : null;
      /** Ends the step-up's session once its wrong answers are spent; true for the one call that ended it. */
      const endSessionIfSpent = async (familyId: string) => {
        const ended = await repo.stepUpFailed(familyId, STEP_UP_FAILURES_PER_SESSION);
        // One row a session: it needs a sign-in, and the failures' own rows are grouped by window.
        if (ended) await recordAbout('step_up_session_ended', employeeId, ctx.address, { sessionId: familyId });
        return ended;
      };
      if (session && !(await repo.reserveStepUp(session, STEP_UP_FAILURES_PER_SESSION))) {
        // None left: the session ends now if its last wrong answer could not end it (a failure between
        // the two writes), or while its last allowed answers are still being checked (a burst).
        await endSessionIfSpent(session);
        throw refuse.stepUpFailedTooOften();
      }
      // Its own counters, locked for every address after the account's failures (login-throttle.ts).
      const attempt = await throttle.reserve(actor(employeeId), ctx.address, 'second-factor').catch(async (error: unknown) => {
        if (session) await repo.releaseStepUp(session);
        throw error;
      });
      let method: FactorMethod | null;
      try {
        method = await check(employeeId, proof, key, ctx.rp, ctx.address);
      } catch (error) {
        await attempt.release();
        if (session) await repo.releaseStepUp(session);
        throw error;
      }
      const stage = session ? 'step_up' : 'sign_in';
      if (!method) {
        const sessionEnded = !!session && (await endSessionIfSpent(session));
        const tried = proof.passkey ? 'passkey' : looksLikeRecoveryCode(proof.code ?? '') ? 'recovery_code' : 'totp';
        await recordWrongFactor(factors.email, ctx.address, { method: tried, stage }, await attempt.failed());
        throw sessionEnded ? refuse.stepUpFailedTooOften() : refuse.wrongSecondFactor();
      }
      if (session) await repo.stepUpSucceeded(session);
      await attempt.succeeded();
      // A sign-in step and a passkey challenge are used once: of two racing answers, one wins.
      if ((!session || method === 'passkey') && !(await repo.takeChallenge(key))) throw refuse.signInStepExpired();
      return method;
    },

    /** A passkey sign-in without the password: options for any of the shop's passkeys (discoverable). */
    async passkeySignInOptions(rp: RelyingParty) {
      const options = await generateAuthenticationOptions({ rpID: rp.rpID, userVerification: 'required' });
      const token = passkeySignInBox.seal(JSON.stringify({ challenge: options.challenge, expiresAt: expiry().getTime() }));
      return { token, options };
    },

    /** The employee whose passkey answered the passkey sign-in's challenge, or 400/401. */
    async passkeySignIn(token: string | undefined, response: AuthenticationResponseJSON, rp: RelyingParty, address: string) {
      const challenge = passkeySignInChallenge(token);
      if (!challenge) throw refuse.signInStepExpired();
      const passkey = await repo.passkeyByCredential(response.id);
      // Without the password, the passkey must have verified its user (a PIN, a fingerprint), and
      // name the same employee it was created for.
      const sameUser = !!passkey && response.response.userHandle === Buffer.from(userHandle(passkey.employeeId)).toString('base64url');
      const verified = sameUser && (await verifyPasskey(passkey, response, challenge.challenge, rp, true));
      if (!passkey || !verified) {
        // Anyone may send a passkey's id: the attempt is about its employee, not by them (no password
        // was given), so it is nobody's in the log, as a stranger's failed sign-in is.
        await events.record({
          type: 'second_factor_failed',
          actor: null,
          address,
          ...(passkey && { entity: 'Employee', entityId: passkey.employeeId }),
          details: { method: 'passkey', stage: 'passkey_sign_in' },
        });
        throw refuse.wrongSecondFactor();
      }
      // A challenge is answered once: the answer sent again (replayed, or raced) finds it spent. Only a
      // passkey's own answer gets here, so only the shop's staff write these rows, each kept a while past
      // the challenge's end, so that an instance whose clock runs behind still finds it spent.
      const keptUntil = new Date(challenge.expiresAt.getTime() + SPENT_KEPT_PAST_END_MS);
      if (!(await repo.spendChallenge(tokenKey(`passkey_sign_in:${challenge.challenge}`), 'passkey_sign_in', keptUntil))) {
        throw refuse.signInStepExpired();
      }
      return passkey.employeeId;
    },

    /** Until when the session's last proved second factor opens the sensitive actions, or null once past. */
    async stepUpUntil(familyId: string) {
      const at = (await repo.secondFactorProof(familyId))?.secondFactorAt;
      const until = at ? at.getTime() + STEP_UP_MS : 0;
      return until > Date.now() ? new Date(until).toISOString() : null;
    },

    /** This session, just started, has proved a second factor (at sign-in; an enrolment or a step-up renews the session instead). */
    markSecondFactor: (familyId: string) => repo.markSecondFactor(familyId, new Date()),

    /**
     * Whether the session proved a second factor within the step-up's minutes (or the employee has none
     * to prove), for an access token of `session.generation`. One from before the session's tokens were
     * renewed (by that very proof, say: a call that passed its session check just before) is refused as
     * the check would refuse it now (401), never lent the proof.
     */
    async steppedUp(employeeId: number, session: { familyId: string; generation: number }, now = Date.now()) {
      if (!(await repo.hasFactor(employeeId))) return true;
      const proof = await repo.secondFactorProof(session.familyId);
      if (!proof || proof.generation !== session.generation) throw unauthorized('Your session has ended. Please sign in again.');
      return !!proof.secondFactorAt && now - proof.secondFactorAt.getTime() <= STEP_UP_MS;
    },

    purge: () => repo.purgeChallenges(),
  };
}

export type SecondFactorService = ReturnType<typeof secondFactorService>;

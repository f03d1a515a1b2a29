// The password check every sign-in shares: the hasher, and the login throttle that a password check
// (a sign-in, or the current password of a password change) runs under, per account and address.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { EMAIL } from '@bookshop/rules';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/errors.ts';
import { type PasswordHasher, passwordHasher } from '../modules/accounts/passwords.ts';
import { type LoginThrottle, loginThrottle, type ThrottleLimits } from '../modules/sessions/login-throttle.ts';

declare module 'fastify' {
  interface FastifyInstance {
    passwords: PasswordHasher;
    loginThrottle: LoginThrottle;
    /**
     * Runs a password check (sign-in, or the current password of a password change) under the login
     * throttle of this account and address: reserved first (429 when locked), a wrong password
     * recorded as a failure and a security event, a right one clearing the account's failures. A check
     * whose result carries `passwordFingerprint` (the hash the password was right for, or the new one
     * it set) marks the browser as one that signed in to the account (its answer's device cookie).
     * `clearsFailures: false` for a password that is not the shop's own (sign-up's, at the identity
     * provider, which anyone may set for an e-mail there): right, it clears nothing.
     */
    throttledPasswordCheck<T>(
      request: FastifyRequest,
      account: string,
      check: () => Promise<T>,
      options?: { clearsFailures?: boolean },
    ): Promise<T>;
    /**
     * The signed-in client's or employee's own password, asked again before what needs proof that it is
     * them: `missing`'s refusal when none was sent, 400 WRONG_PASSWORD when it is not theirs, checked and
     * throttled as a sign-in.
     */
    confirmOwnPassword(
      request: FastifyRequest,
      audience: 'client' | 'employee',
      id: number,
      password: string | undefined,
      missing: () => Error,
    ): Promise<void>;
  }
  interface FastifyRequest {
    /** The account whose right password this request checked, and that password's fingerprint: its answer marks the browser. */
    deviceSignedIn?: { account: string; password: string };
  }
}

/**
 * A browser's device cookie (OWASP's "device cookies"): after a right password, the account it was
 * right for and the password it was right with (the fingerprint of its hash, passwords.ts), signed,
 * with a nonce. Past an account's day of failed passwords only such a browser may still try it
 * (login-throttle.ts), so guesses from fresh addresses cannot shut its owner out of the browsers they
 * use; a new password takes every other browser's mark back, as it ends their sessions. One a browser,
 * for the last account signed in there.
 */
const DEVICE_COOKIE_SECONDS = 365 * 24 * 60 * 60;
export const deviceCookieName = (secure: boolean) => `${secure ? '__Secure-' : ''}bs_device`;
const deviceSignature = (secret: string, account: string, password: string, nonce: string) =>
  createHmac('sha256', `${secret}:device`).update(`${account}:${password}:${nonce}`).digest('base64url');
/** `password`: the fingerprint of the account's password hash now. */
export function deviceCookieFor(secret: string, account: string, password: string) {
  const nonce = randomBytes(16).toString('base64url');
  return `${nonce}.${deviceSignature(secret, account, password, nonce)}`;
}
const looksLikeDeviceCookie = (cookie: string) => /^[\w-]{22}\.[\w-]{43}$/.test(cookie);
export function isDeviceOf(secret: string, account: string, password: string, cookie: string | undefined) {
  if (cookie === undefined || !looksLikeDeviceCookie(cookie)) return false;
  const [nonce, signature] = cookie.split('.') as [string, string];
  const expected = Buffer.from(deviceSignature(secret, account, password, nonce));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The fingerprint a password check's result carries (accounts' login, confirmPassword, changePassword), if any. */
const fingerprintIn = (result: unknown) =>
  typeof result === 'object' && result !== null && 'passwordFingerprint' in result && typeof result.passwordFingerprint === 'string'
    ? result.passwordFingerprint
    : undefined;

/** How often expired counters are purged (by every instance; deletes are idempotent). */
const PURGE_INTERVAL_MS = 10 * 60 * 1000;
/** Refusals that mean "wrong password", as opposed to a check that could not run. */
const WRONG_PASSWORD_CODES = new Set(['INVALID_CREDENTIALS', 'WRONG_PASSWORD']);

/**
 * Who a failed check is recorded under: the account it named, which is an e-mail (the rule every
 * account's address passed). A name that is no e-mail is nobody's account, and is recorded as nobody:
 * typed by a stranger, `employee:1` would otherwise stand in the audit log as the Admin's own failure
 * (the log's names for people are `employee:<id>` and `client:<id>`).
 */
export const namedActor = (account: string) => (EMAIL.test(account) ? account : null);

export default fp<{ throttle?: ThrottleLimits }>(
  async (app, opts) => {
    const throttle = loginThrottle(app.prisma, opts.throttle);
    const events = app.securityEvents;
    app.decorate('passwords', passwordHasher(app.config.bcryptCost));
    app.decorate('loginThrottle', throttle);
    const { jwtSecret, cookieSecure, corsOrigins } = app.config;
    const deviceCookie = deviceCookieName(cookieSecure);
    app.decorateRequest('deviceSignedIn', undefined);
    app.addHook('onSend', async (request, reply) => {
      const signedIn = request.deviceSignedIn;
      if (signedIn === undefined || reply.statusCode >= 400) return;
      reply.setCookie(deviceCookie, deviceCookieFor(jwtSecret, signedIn.account, signedIn.password), {
        httpOnly: true,
        // As the session cookies: None only for a frontend on another site (CORS_ORIGINS).
        sameSite: corsOrigins.length ? 'none' : 'strict',
        secure: cookieSecure || request.protocol === 'https',
        path: '/api',
        maxAge: DEVICE_COOKIE_SECONDS,
      });
    });

    const purge = setInterval(() => {
      throttle.purge().catch((error: Error) => app.log.warn({ err: error }, 'login throttle purge failed'));
    }, PURGE_INTERVAL_MS).unref();
    app.addHook('onClose', async () => clearInterval(purge));

    app.decorate(
      'throttledPasswordCheck',
      async <T>(
        request: FastifyRequest,
        account: string,
        check: () => Promise<T>,
        { clearsFailures = true }: { clearsFailures?: boolean } = {},
      ): Promise<T> => {
        const address = app.clientAddress(request);
        const presented = request.cookies[deviceCookie];
        // Read only when a browser shows something shaped as a mark: a stranger's guesses, which carry
        // none, cost no more.
        const password =
          presented === undefined || !looksLikeDeviceCookie(presented) ? null : await app.accounts.passwordFingerprintOf(account);
        const knownDevice = password !== null && isDeviceOf(jwtSecret, account, password, presented);
        const attempt = await throttle.reserve(account, address, 'password', { knownDevice });
        let result: T;
        try {
          result = await check();
        } catch (error) {
          if (!(error instanceof AppError && WRONG_PASSWORD_CODES.has(error.code))) {
            await attempt.release();
            throw error;
          }
          const { locked } = await attempt.failed();
          app.shopMetrics.loginFailures.inc();
          if (locked) app.shopMetrics.lockouts.inc();
          const type = error.code === 'INVALID_CREDENTIALS' ? 'login_failed' : 'password_check_failed';
          const actor = namedActor(account);
          await events.record({ type, actor, address });
          if (locked) await events.record({ type: 'login_locked', actor, address, details: { limits: throttle.limits } });
          throw error;
        }
        if (clearsFailures) {
          await attempt.succeeded();
          const password = fingerprintIn(result);
          if (password !== undefined) request.deviceSignedIn = { account, password };
        } else await attempt.release();
        return result;
      },
    );

    app.decorate(
      'confirmOwnPassword',
      async (request: FastifyRequest, audience: 'client' | 'employee', id: number, password: string | undefined, missing: () => Error) => {
        if (!password) throw missing();
        await app.throttledPasswordCheck(request, await app.accounts.loginName(audience, id), () =>
          app.accounts.confirmPassword(audience, id, password),
        );
      },
    );
  },
  { name: 'password-check', dependencies: ['prisma', 'config', 'metrics', 'security-events'] },
);

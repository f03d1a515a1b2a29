// The identity provider (Firebase Auth) vouches for a new client's e-mail, in one of two ways:
// - an ID token the browser got from the provider (`Authorization: Bearer`), verified by firebase-admin;
// - the e-mail and password of the sign-up body itself, which the spec's own client sends with no
//   header: the API signs in to the provider with them (proving the caller knows the provider
//   password) and verifies the ID token it gets back the same way.
// It also proves that a client who forgot their password owns the e-mail: it sends its password-reset
// e-mail, and the code in that e-mail's link is confirmed with it before the shop's password changes.
// firebase-admin and the REST calls talk to the local emulator when FIREBASE_AUTH_EMULATOR_HOST is set.

import fp from 'fastify-plugin';
import { type App, deleteApp, initializeApp } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';
import { AppError, badRequest, refusal, unauthorized } from '../lib/errors.ts';
import type { VerifiedIdentity } from '../modules/accounts/account-service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    verifyIdentity(idToken: string | undefined): Promise<VerifiedIdentity>;
    signInToIdentityProvider(email: string, password: string): Promise<VerifiedIdentity>;
    /**
     * Has the provider e-mail this address a link to reset its password, whose code comes back to
     * `confirmPasswordReset`. False when the provider has no such account.
     */
    sendPasswordResetEmail(email: string, continueUrl: string): Promise<boolean>;
    /**
     * Checks a password-reset code from the provider's e-mail and gives the e-mail it was sent to;
     * with `newPassword`, also spends the code (it works once) and sets that password at the provider.
     */
    confirmPasswordReset(oobCode: string, newPassword?: string): Promise<string>;
  }
}

/** The provider's refusals of a reset link's code, in words the reset screen can show. */
const RESET_CODE_REFUSED = 'This reset link is invalid, used or expired. Please ask for a new one.';

/** How long one call to the provider may take before it counts as unreachable (503). */
const PROVIDER_TIMEOUT_MS = 8_000;

/**
 * The time budget of a route that calls the provider (a sign-up, a password reset), in place of the
 * usual REQUEST_TIMEOUT_MS: its calls and the shop's own work around them end within it (a reset: the
 * code's check, 8 s at most, a wait of 3 s at most for a connection, then a transaction of 11 s at most
 * that spends it), so the answer says
 * what happened. Within the usual 10 s, a provider slow to answer was still waited on after the
 * client had been told 503 "please try again", and the reset or sign-up it then finished was done.
 * The proxy in front waits longer (docker/nginx.conf, scripts/proxy-limits.test.ts), and a shutdown
 * lets it finish (server.ts).
 */
export const PROVIDER_ROUTE_TIME_LIMIT_MS = 25_000;

/**
 * The provider's refusals of an e-mail and password at sign-up, in one set of words whether the
 * e-mail is unknown or the password wrong: different words would tell a guesser which passwords
 * are right (the next answer, 409, says the e-mail is taken). Coded as a wrong sign-in, so the
 * sign-up's check is throttled and recorded like one.
 */
export const SIGN_UP_CREDENTIALS_REFUSED =
  'The e-mail and password do not match an identity provider account. Create your account there first and verify your e-mail, or check the password.';
const WRONG_CREDENTIALS = new Set(['EMAIL_NOT_FOUND', 'INVALID_PASSWORD', 'INVALID_LOGIN_CREDENTIALS']);

export default fp(
  async (app) => {
    let firebase: App | undefined;
    const auth = () => {
      firebase ??= initializeApp({ projectId: app.config.firebaseProjectId }, `bookshop-${Date.now()}-${Math.random()}`);
      return getAuth(firebase);
    };
    const emulator = app.config.firebaseAuthEmulatorHost;
    if (emulator && app.config.env === 'production') {
      // Allowed only with ALLOW_IDENTITY_EMULATOR=true (config.ts): say so loudly at every start.
      app.log.warn(
        `warning: the identity provider is the local emulator at ${emulator}, whose tokens are not signed: anyone can claim a verified e-mail. A local demo only.`,
      );
    }
    const identityToolkit = emulator ? `http://${emulator}/identitytoolkit.googleapis.com/v1` : 'https://identitytoolkit.googleapis.com/v1';

    const verifyIdentity = async (idToken: string | undefined) => {
      if (!idToken) throw unauthorized('Please verify your e-mail with the identity provider first.');
      try {
        const decoded = await auth().verifyIdToken(idToken);
        return { uid: decoded.uid, email: decoded.email, emailVerified: decoded.email_verified === true };
      } catch (error) {
        app.log.info({ reason: (error as Error).message }, 'identity token refused');
        throw unauthorized('The identity token is invalid or expired.');
      }
    };
    app.decorate('verifyIdentity', verifyIdentity);

    /**
     * One call to the provider's REST API: its answer, or its refusal's code (EMAIL_NOT_FOUND...).
     * Unreachable is a 503 and its own throttling a 429, whatever the call.
     */
    const callProvider = async <Answer>(
      method: string,
      payload: object,
    ): Promise<{ ok: true; body: Answer } | { ok: false; code: string }> => {
      let response: Response;
      try {
        response = await fetch(`${identityToolkit}/${method}?key=${encodeURIComponent(app.config.firebaseWebApiKey)}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(payload),
          signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
        });
      } catch (error) {
        app.log.warn({ reason: (error as Error).message }, 'identity provider unreachable');
        throw new AppError(503, 'IDENTITY_PROVIDER_UNAVAILABLE', 'The identity provider cannot be reached. Please try again.', {
          'retry-after': '10',
        });
      }
      const body = (await response.json().catch(() => ({}))) as Answer & { error?: { message?: string } };
      if (response.ok) return { ok: true, body };
      const code = body.error?.message?.split(/[\s:]/)[0] ?? '';
      if (code.startsWith('TOO_MANY_ATTEMPTS')) {
        throw new AppError(429, 'TOO_MANY_ATTEMPTS', 'Too many attempts with the identity provider. Please try again later.', {
          'retry-after': '60',
        });
      }
      return { ok: false, code };
    };

    app.decorate('signInToIdentityProvider', async (email: string, password: string) => {
      const answer = await callProvider<{ idToken?: string }>('accounts:signInWithPassword', { email, password, returnSecureToken: true });
      if (!answer.ok || !answer.body.idToken) {
        const code = answer.ok ? '' : answer.code;
        app.log.info({ code }, 'identity provider refused a sign-up sign-in');
        if (WRONG_CREDENTIALS.has(code)) throw refusal(401, 'INVALID_CREDENTIALS', SIGN_UP_CREDENTIALS_REFUSED);
        throw unauthorized(
          code === 'USER_DISABLED' ? 'This identity provider account is disabled.' : 'The identity provider refused these credentials.',
        );
      }
      return verifyIdentity(answer.body.idToken);
    });

    app.decorate('sendPasswordResetEmail', async (email: string, continueUrl: string) => {
      const answer = await callProvider('accounts:sendOobCode', { requestType: 'PASSWORD_RESET', email, continueUrl });
      if (!answer.ok) app.log.info({ code: answer.code }, 'identity provider sent no password-reset e-mail');
      return answer.ok;
    });

    app.decorate('confirmPasswordReset', async (oobCode: string, newPassword?: string) => {
      const answer = await callProvider<{ email?: string; requestType?: string }>('accounts:resetPassword', { oobCode, newPassword });
      if (!answer.ok || !answer.body.email || answer.body.requestType !== 'PASSWORD_RESET') {
        app.log.info({ code: answer.ok ? answer.body.requestType : answer.code }, 'identity provider refused a password-reset code');
        throw badRequest(RESET_CODE_REFUSED, 'RESET_CODE_REFUSED');
      }
      return answer.body.email;
    });

    app.addHook('onClose', async () => {
      if (firebase) await deleteApp(firebase);
    });
  },
  { name: 'identity', dependencies: ['config'] },
);

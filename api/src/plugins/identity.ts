// The identity provider (Firebase Auth) vouches for a new client's e-mail, in one of two ways:
// - an ID token the browser got from the provider (`Authorization: Bearer`), verified by firebase-admin;
// - the e-mail and password of the sign-up body itself, which the spec's own client sends with no
//   header: the API signs in to the provider with them (proving the caller knows the provider
//   password) and verifies the ID token it gets back the same way.
// firebase-admin and the REST calls talk to the local emulator when FIREBASE_AUTH_EMULATOR_HOST is set.

import fp from 'fastify-plugin';
import { type App, deleteApp, initializeApp } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';
import { AppError, unauthorized } from '../lib/errors.ts';
import type { VerifiedIdentity } from '../modules/accounts/account-service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    verifyIdentity(idToken: string | undefined): Promise<VerifiedIdentity>;
    signInToIdentityProvider(email: string, password: string): Promise<VerifiedIdentity>;
  }
}

const PROVIDER_TIMEOUT_MS = 10_000;

/** The provider's sign-in refusals, in words the sign-up screen can show. */
const SIGN_IN_REFUSALS: Record<string, string> = {
  EMAIL_NOT_FOUND: 'Create your account with the identity provider first, then verify your e-mail.',
  INVALID_PASSWORD: 'The e-mail and password do not match your identity provider account.',
  INVALID_LOGIN_CREDENTIALS: 'The e-mail and password do not match your identity provider account.',
  USER_DISABLED: 'This identity provider account is disabled.',
};

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

    app.decorate('signInToIdentityProvider', async (email: string, password: string) => {
      let response: Response;
      try {
        response = await fetch(`${identityToolkit}/accounts:signInWithPassword?key=${encodeURIComponent(app.config.firebaseWebApiKey)}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, password, returnSecureToken: true }),
          signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
        });
      } catch (error) {
        app.log.warn({ reason: (error as Error).message }, 'identity provider unreachable');
        throw new AppError(503, 'IDENTITY_PROVIDER_UNAVAILABLE', 'The identity provider cannot be reached. Please try again.', {
          'retry-after': '10',
        });
      }
      const body = (await response.json().catch(() => ({}))) as { idToken?: string; error?: { message?: string } };
      if (!response.ok || !body.idToken) {
        // The provider's code is the message's first word ("TOO_MANY_ATTEMPTS_TRY_LATER : ...").
        const code = body.error?.message?.split(/[\s:]/)[0] ?? '';
        if (code.startsWith('TOO_MANY_ATTEMPTS')) {
          throw new AppError(429, 'TOO_MANY_ATTEMPTS', 'Too many attempts with the identity provider. Please try again later.', {
            'retry-after': '60',
          });
        }
        app.log.info({ code }, 'identity provider refused a sign-up sign-in');
        throw unauthorized(SIGN_IN_REFUSALS[code] ?? 'The identity provider refused these credentials.');
      }
      return verifyIdentity(body.idToken);
    });

    app.addHook('onClose', async () => {
      if (firebase) await deleteApp(firebase);
    });
  },
  { name: 'identity', dependencies: ['config'] },
);

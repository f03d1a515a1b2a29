// The identity provider (Firebase Auth) vouches for a new client's e-mail. firebase-admin talks to
// the local emulator when FIREBASE_AUTH_EMULATOR_HOST is set.

import fp from 'fastify-plugin';
import { type App, deleteApp, initializeApp } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';
import { unauthorized } from '../lib/errors.ts';
import type { VerifiedIdentity } from '../modules/accounts/account-service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    verifyIdentity(idToken: string | undefined): Promise<VerifiedIdentity>;
  }
}

export default fp(
  async (app) => {
    let firebase: App | undefined;
    const auth = () => {
      firebase ??= initializeApp({ projectId: app.config.firebaseProjectId }, `bookshop-${Date.now()}-${Math.random()}`);
      return getAuth(firebase);
    };
    app.decorate('verifyIdentity', async (idToken: string | undefined) => {
      if (!idToken) throw unauthorized('Please verify your e-mail with the identity provider first.');
      try {
        const decoded = await auth().verifyIdToken(idToken);
        return { uid: decoded.uid, email: decoded.email, emailVerified: decoded.email_verified === true };
      } catch (error) {
        app.log.info({ reason: (error as Error).message }, 'identity token refused');
        throw unauthorized('The identity token is invalid or expired.');
      }
    });
    app.addHook('onClose', async () => {
      if (firebase) await deleteApp(firebase);
    });
  },
  { name: 'identity', dependencies: ['config'] },
);

// The identity provider's browser SDK (Firebase Auth), loaded only by the sign-up screen. Its
// settings come from the API at run time, so one build serves the emulator and a real project.
import { type FirebaseApp, initializeApp } from 'firebase/app';
import {
  type Auth,
  connectAuthEmulator,
  createUserWithEmailAndPassword,
  getAuth,
  sendEmailVerification,
  updateProfile,
} from 'firebase/auth';
import { api, unwrap } from '../../api/client';

let auth: Promise<Auth> | undefined;

export function identity(): Promise<Auth> {
  auth ??= unwrap(api.GET('/api/public/sign-up/identity-config')).then((config) => {
    const app: FirebaseApp = initializeApp(
      { apiKey: config.apiKey, authDomain: config.authDomain, projectId: config.projectId },
      'bookshop',
    );
    const instance = getAuth(app);
    if (config.emulatorUrl) connectAuthEmulator(instance, config.emulatorUrl, { disableWarnings: true });
    return instance;
  });
  return auth;
}

/** Creates the account with a display name of first and last name, and sends the verification e-mail. */
export async function createIdentity(email: string, password: string, displayName: string) {
  const instance = await identity();
  const { user } = await createUserWithEmailAndPassword(instance, email, password);
  await updateProfile(user, { displayName });
  await sendEmailVerification(user);
}

export async function resendVerification() {
  const user = (await identity()).currentUser;
  if (!user) throw new Error('Please sign up again.');
  await sendEmailVerification(user);
}

/** Refreshes the account; returns a fresh ID token when the e-mail is verified, else null. */
export async function verifiedIdToken(): Promise<string | null> {
  const user = (await identity()).currentUser;
  if (!user) throw new Error('Please sign up again.');
  await user.reload();
  return user.emailVerified ? user.getIdToken(true) : null;
}

/** The provider's own message, without its "Firebase: ... (auth/...)" wrapping. */
export const providerMessage = (error: unknown) =>
  error instanceof Error ? error.message.replace(/^Firebase:\s*/, '').replace(/\s*\(auth\/[^)]+\)\.?$/, '') : 'Sign-up failed.';

// The identity provider's browser SDK (Firebase Auth), loaded only by the sign-up screen. Its
// settings come from the API at run time, so one build serves the emulator and a real project.
import { type FirebaseApp, initializeApp } from 'firebase/app';
import {
  type Auth,
  applyActionCode,
  connectAuthEmulator,
  createUserWithEmailAndPassword,
  getAuth,
  sendEmailVerification,
  signInWithEmailAndPassword,
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

/**
 * Creates the provider account (named after the shopper) and sends the verification e-mail; or, when
 * this e-mail already has one with this password (a sign-up left before it was finished: a reload,
 * a closed tab), signs in to it and carries on. Says whether its e-mail is verified already.
 */
export async function createOrResumeIdentity(email: string, password: string, displayName: string): Promise<{ verified: boolean }> {
  const instance = await identity();
  try {
    const { user } = await createUserWithEmailAndPassword(instance, email, password);
    await updateProfile(user, { displayName });
    await sendEmailVerification(user);
    return { verified: false };
  } catch (error) {
    if (providerCode(error) !== 'auth/email-already-in-use') throw error;
  }
  const { user } = await signInWithEmailAndPassword(instance, email, password);
  if (user.emailVerified) return { verified: true };
  await sendEmailVerification(user);
  return { verified: false };
}

export async function resendVerification() {
  const user = (await identity()).currentUser;
  if (!user) throw new Error('Please sign up again.');
  await sendEmailVerification(user);
}

/** Spends a verification e-mail's code at the provider: the e-mail is verified, in whichever browser opened the link. */
export async function applyEmailVerification(oobCode: string) {
  await applyActionCode(await identity(), oobCode);
}

/** Refreshes the account; returns a fresh ID token when the e-mail is verified, else null. */
export async function verifiedIdToken(): Promise<string | null> {
  const user = (await identity()).currentUser;
  if (!user) throw new Error('Please sign up again.');
  await user.reload();
  return user.emailVerified ? user.getIdToken(true) : null;
}

const providerCode = (error: unknown) => (error as { code?: unknown } | null)?.code;

/**
 * What the provider's refusals mean to the person signing up, for the codes whose own message says
 * nothing more than its code (the SDK's "Firebase: Error (auth/invalid-credential).").
 */
const PROVIDER_MESSAGES: Record<string, string> = {
  'auth/invalid-credential': 'This e-mail already has an account with another password. Log in, or sign up with another e-mail.',
  'auth/wrong-password': 'This e-mail already has an account with another password. Log in, or sign up with another e-mail.',
  'auth/invalid-email': 'Please enter a valid e-mail address.',
  'auth/weak-password': 'Please choose a stronger password.',
  'auth/too-many-requests': 'Too many attempts. Please wait a moment and try again.',
  'auth/network-request-failed': 'The sign-up service cannot be reached. Please check your connection and try again.',
  'auth/user-disabled': 'This account has been disabled.',
};

/**
 * Spec 5: a provider error is shown with the provider's own message, without its "Firebase: … (auth/…)"
 * wrapping; where that message is only the word "Error", what its code means instead.
 */
export const providerMessage = (error: unknown): string => providerReason(error) ?? 'Sign-up failed.';

/** The provider's reason for a refusal, as providerMessage words it; undefined when it gives none worth showing. */
export function providerReason(error: unknown): string | undefined {
  const own =
    error instanceof Error
      ? error.message
          .replace(/^Firebase:\s*/, '')
          .replace(/\s*\(auth\/[^)]+\)\.?$/, '')
          .trim()
      : '';
  if (own && own !== 'Error') return own;
  return PROVIDER_MESSAGES[String(providerCode(error))];
}

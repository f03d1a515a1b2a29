// Spec 5: the provider's errors are shown in its own words, unwrapped; a code whose message is only
// "Error" is said in words instead.
import { FirebaseError } from 'firebase/app';
import { expect, it } from 'vitest';
import { providerMessage, providerReason } from './identity';

it("shows the provider's own message without its wrapping", () => {
  const weak = new FirebaseError('auth/weak-password', 'Firebase: Password should be at least 6 characters (auth/weak-password).');
  expect(providerMessage(weak)).toBe('Password should be at least 6 characters');
});

it('says what a code means where its message is only "Error"', () => {
  const taken = new FirebaseError('auth/invalid-credential', 'Firebase: Error (auth/invalid-credential).');
  expect(providerMessage(taken)).toBe('This e-mail already has an account with another password. Log in, or sign up with another e-mail.');
  expect(providerMessage(new FirebaseError('auth/unheard-of', 'Firebase: Error (auth/unheard-of).'))).toBe('Sign-up failed.');
});

it('gives no reason for a code it cannot word, where a message of its own would say only "Sign-up failed."', () => {
  expect(providerReason(new FirebaseError('auth/unheard-of', 'Firebase: Error (auth/unheard-of).'))).toBeUndefined();
  expect(providerReason(new FirebaseError('auth/too-many-requests', 'Firebase: Error (auth/too-many-requests).'))).toBe(
    'Too many attempts. Please wait a moment and try again.',
  );
});

// The sign-in's second step (beyond the spec): after the password, an employee with a second factor
// gives it here; the back-office session starts with the answer. A passkey goes through the
// browser's own dialog (SimpleWebAuthn, loaded only then).
import { useMutation, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import type { operations } from '../../../api/schema';

export const useSecondFactorOptions = () =>
  useQuery({
    queryKey: ['sign-in', 'second-factor'],
    queryFn: () => unwrap(api.POST('/api/public/authentication/second-factor/options')),
    retry: false,
    // Asked once while the step is on screen (each ask writes the step a new passkey challenge), and
    // forgotten when it leaves: a sign-in begun again has a step of its own, and the last one's challenge
    // is spent, so its passkey's answer would be refused (and counted as a wrong factor).
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });

type PasskeyOptions = NonNullable<
  operations['secondFactorSignInOptions']['responses'][200]['content']['application/json']['data']['passkey']
>;

async function giveSecondFactor(proof: { code: string } | { passkey: PasskeyOptions }) {
  if ('code' in proof) return unwrap(api.POST('/api/public/authentication/second-factor', { body: { code: proof.code } }));
  const { startAuthentication } = await import('@simplewebauthn/browser');
  const passkey = await startAuthentication({ optionsJSON: proof.passkey as Parameters<typeof startAuthentication>[0]['optionsJSON'] });
  return unwrap(api.POST('/api/public/authentication/second-factor', { body: { passkey: passkey as never } }));
}

/** Nothing cached is invalidated here: the session provider starts the signed-in state (signedIn). */
export const useGiveSecondFactor = () => useMutation({ mutationFn: giveSecondFactor });

// A passkey sign-in without the password (beyond the spec, employees): the server's challenge for
// any of the shop's passkeys, the browser's dialog, and the back-office session from the answer.
import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';

async function passkeySignIn() {
  const optionsJSON = await unwrap(api.POST('/api/public/authentication/passkey/options'));
  const { startAuthentication } = await import('@simplewebauthn/browser');
  const passkey = await startAuthentication({ optionsJSON: optionsJSON as Parameters<typeof startAuthentication>[0]['optionsJSON'] });
  return unwrap(api.POST('/api/public/authentication/passkey', { body: { passkey: passkey as never } }));
}

export const usePasskeySignIn = () => useMutation({ mutationFn: passkeySignIn });

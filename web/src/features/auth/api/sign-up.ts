// POST /api/public/sign-up: creates the shop's client for an identity whose e-mail is verified
// (the provider's ID token proves it), and signs them in.
import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import type { BodyOf } from '../../../api/types';

const signUp = ({ idToken, body }: { idToken: string; body: BodyOf<'signUp'> }) =>
  unwrap(api.POST('/api/public/sign-up', { headers: { authorization: `Bearer ${idToken}` }, body }));

/**
 * The shop's account for the identity just created, once the provider says its e-mail is verified:
 * null (nothing sent) while it is not yet. `body` reads the form when the check runs.
 */
export const useFinishSignUp = (body: () => BodyOf<'signUp'>) =>
  useMutation({
    mutationFn: async () => {
      // The SDK is imported on demand so the storefront's first load does not carry it.
      const { verifiedIdToken } = await import('../identity');
      const idToken = await verifiedIdToken();
      return idToken ? signUp({ idToken, body: body() }) : null;
    },
  });

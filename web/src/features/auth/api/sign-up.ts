// POST /api/public/sign-up: creates the shop's client for an identity whose e-mail is verified
// (the provider's ID token proves it), and signs them in.
import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import type { BodyOf } from '../../../api/types';

const signUp = ({ idToken, body }: { idToken: string; body: BodyOf<'signUp'> }) =>
  unwrap(api.POST('/api/public/sign-up', { headers: { authorization: `Bearer ${idToken}` }, body }));

export const useSignUp = () => useMutation({ mutationFn: signUp });

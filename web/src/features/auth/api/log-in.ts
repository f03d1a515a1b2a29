// POST /api/public/authentication/login: answers the user type; the session travels in cookies.
import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import type { BodyOf } from '../../../api/types';

const logIn = (body: BodyOf<'login'>) => unwrap(api.POST('/api/public/authentication/login', { body }));

/** Nothing cached is invalidated here: the session provider starts the signed-in state (signedIn). */
export const useLogIn = () => useMutation({ mutationFn: logIn });

// POST /api/public/password-reset (beyond the spec): the reset e-mail's code and the new password.
import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import type { BodyOf } from '../../../api/types';

const resetPassword = (body: BodyOf<'resetPassword'>) => unwrap(api.POST('/api/public/password-reset', { body }));

/** Nothing cached changes: every session of the client ends, and they sign in again. */
export const useResetPassword = () => useMutation({ mutationFn: resetPassword });

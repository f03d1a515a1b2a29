// POST /api/public/password-reset/request (beyond the spec): the provider e-mails a reset link.
import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import type { BodyOf } from '../../../api/types';

const requestPasswordReset = (body: BodyOf<'requestPasswordReset'>) => unwrap(api.POST('/api/public/password-reset/request', { body }));

/** Nothing cached changes: the answer is a message, the same for every e-mail. */
export const useRequestPasswordReset = () => useMutation({ mutationFn: requestPasswordReset });

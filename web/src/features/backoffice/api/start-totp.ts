import { useMutation } from '@tanstack/react-query';
import { api, withSession } from '../../../api/client';

const startTotp = () => withSession('Employee', () => api.POST('/api/employee/second-factor/totp'));

/** A new authenticator secret, pending until its first code: nothing cached changes yet. */
export const useStartTotp = () => useMutation({ mutationFn: startTotp });

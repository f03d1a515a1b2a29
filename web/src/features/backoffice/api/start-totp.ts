import { useMutation } from '@tanstack/react-query';
import { api, withSession } from '../../../api/client';

/** `currentPassword`: needed for a first second factor (the API says so otherwise). */
const startTotp = (currentPassword?: string) =>
  withSession('Employee', () => api.POST('/api/employee/second-factor/totp', { body: { currentPassword } }));

/** A new authenticator secret, pending until its first code: nothing cached changes yet. */
export const useStartTotp = () => useMutation({ mutationFn: startTotp });

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, withSessionRenewal } from '../../../api/client';
import type { BodyOf } from '../../../api/types';
import { clientKeys } from '../../../lib/query-keys';

const changePassword = (body: BodyOf<'changeClientPassword'>) =>
  withSessionRenewal('Client', () => api.PUT('/api/client/manage/password/', { body }));

/** The password is never read back; a new one ends the other sessions, so their list is read again. */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePassword,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: clientKeys.sessions }),
  });
}

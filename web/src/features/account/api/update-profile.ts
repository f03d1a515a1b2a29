import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, withSession } from '../../../api/client';
import type { BodyOf } from '../../../api/types';
import { clientKeys } from '../../../lib/query-keys';

const updateProfile = (body: BodyOf<'updateClientInfo'>) => withSession('Client', () => api.PATCH('/api/client/manage', { body }));

/** The answer is the stored information, so it replaces the cached one without a refetch. */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (info) => queryClient.setQueryData(clientKeys.info, info),
  });
}

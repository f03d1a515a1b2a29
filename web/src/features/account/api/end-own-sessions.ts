import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, withSession } from '../../../api/client';
import type { BodyOf } from '../../../api/types';
import { clientKeys } from '../../../lib/query-keys';

const endOwnSessions = (body: BodyOf<'endOwnClientSessions'>) =>
  withSession('Client', () => api.POST('/api/client/manage/sessions/end', { body }));

/** The list is read again whatever the answer: a session may have ended meanwhile anyway. */
export function useEndOwnSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: endOwnSessions,
    onSettled: () => queryClient.invalidateQueries({ queryKey: clientKeys.sessions }),
  });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, withSession } from '../../../api/client';
import type { BodyOf } from '../../../api/types';
import { backofficeKeys } from './query-keys';

const endOwnEmployeeSessions = (body: BodyOf<'endOwnEmployeeSessions'>) =>
  withSession('Employee', () => api.POST('/api/employee/sessions/end', { body }));

/** The list is read again whatever the answer: a session may have ended meanwhile anyway. */
export function useEndOwnEmployeeSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: endOwnEmployeeSessions,
    onSettled: () => queryClient.invalidateQueries({ queryKey: backofficeKeys.sessions.all }),
  });
}

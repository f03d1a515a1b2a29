import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, withSession } from '../../../api/client';
import { clientKeys } from '../../../lib/query-keys';

const markNoticesRead = () => withSession('Client', () => api.POST('/api/client/notices/read'));

/** Opening the bell reads its notices: the count goes back to 0. */
export function useMarkNoticesRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markNoticesRead,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: clientKeys.notices }),
  });
}

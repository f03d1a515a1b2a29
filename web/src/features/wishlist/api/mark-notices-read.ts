import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, withSession } from '../../../api/client';
import { clientKeys } from '../../../lib/query-keys';

/**
 * `upTo`: the newest notice shown, so one that arrives while the bell is open stays unread; `from`:
 * the oldest unread one shown, so those past the list stay unread for the next look.
 */
const markNoticesRead = (shown: { upTo: number; from: number }) =>
  withSession('Client', () => api.POST('/api/client/notices/read', { params: { query: shown } }));

/** Closing the bell, once opened, reads the notices it showed: the count goes back to 0, or to those that came since. */
export function useMarkNoticesRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markNoticesRead,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: clientKeys.notices }),
  });
}

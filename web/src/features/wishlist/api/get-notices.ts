import { queryOptions } from '@tanstack/react-query';
import { api, withSession } from '../../../api/client';
import { clientKeys } from '../../../lib/query-keys';
import { useClientQuery } from '../../../lib/session';

export const noticesQuery = queryOptions({
  queryKey: clientKeys.notices,
  queryFn: () => withSession('Client', () => api.GET('/api/client/notices')),
});

/** The bell's notices, read at each visit (a restock may have written one since). */
export function useNotices() {
  return useClientQuery(noticesQuery);
}

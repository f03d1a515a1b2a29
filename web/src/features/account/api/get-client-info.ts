// The signed-in client's own information (My Account).
import { queryOptions } from '@tanstack/react-query';
import { api, withSession } from '../../../api/client';
import { clientKeys } from '../../../lib/query-keys';
import { useClientQuery } from '../../../lib/session';

export const clientInfoQuery = queryOptions({
  queryKey: clientKeys.info,
  queryFn: () => withSession('Client', () => api.GET('/api/client/manage')),
});

export function useClientInfo() {
  return useClientQuery(clientInfoQuery);
}

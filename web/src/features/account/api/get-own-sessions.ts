// The signed-in client's live sessions (Account, "Your sessions").
import { queryOptions } from '@tanstack/react-query';
import { api, withSession } from '../../../api/client';
import { clientKeys } from '../../../lib/query-keys';
import { useClientQuery } from '../../../lib/session';

export const ownSessionsQuery = queryOptions({
  queryKey: clientKeys.sessions,
  queryFn: () => withSession('Client', () => api.GET('/api/client/manage/sessions/')),
});

export const useOwnSessions = () => useClientQuery(ownSessionsQuery);

// The signed-in employee's live back-office sessions (Account, "Your sessions").
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, withSession } from '../../../api/client';
import { backofficeKeys } from './query-keys';

export const ownEmployeeSessionsQuery = queryOptions({
  queryKey: backofficeKeys.sessions.all,
  queryFn: () => withSession('Employee', () => api.GET('/api/employee/sessions/')),
});

export const useOwnEmployeeSessions = () => useQuery(ownEmployeeSessionsQuery);

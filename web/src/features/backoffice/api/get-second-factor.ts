// The signed-in employee's second factors (beyond the spec): app, passkeys, recovery codes left,
// whether one is required before anything else, and until when the sensitive actions are open.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, withSession } from '../../../api/client';
import { backofficeKeys } from './query-keys';

export const secondFactorQuery = queryOptions({
  queryKey: backofficeKeys.secondFactor.all,
  queryFn: () => withSession('Employee', () => api.GET('/api/employee/second-factor')),
});

export const useSecondFactor = () => useQuery(secondFactorQuery);

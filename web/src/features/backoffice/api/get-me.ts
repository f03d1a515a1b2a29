// The signed-in employee's own information.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, withSession } from '../../../api/client';
import { backofficeKeys } from './query-keys';

export const employeeMeQuery = queryOptions({
  queryKey: backofficeKeys.me.all,
  queryFn: () => withSession('Employee', () => api.GET('/api/employee/employee/')),
});

export const useEmployeeMe = () => useQuery(employeeMeQuery);

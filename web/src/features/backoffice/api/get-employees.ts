// The Employees table (Admin only).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, withSession } from '../../../api/client';
import { backofficeKeys } from './query-keys';

export const employeesQuery = queryOptions({
  queryKey: backofficeKeys.employees.all,
  queryFn: () => withSession('Employee', () => api.GET('/api/employee/employees/')),
});

export const useEmployees = () => useQuery(employeesQuery);

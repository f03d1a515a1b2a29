// The signed-in employee's own account: its read and its two writes, each write owning what it
// invalidates.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { employeeApi } from './api';
import { backofficeKeys } from './query-keys';

export type EmployeeInfo = Parameters<typeof employeeApi.updateMe>[0];

export const employeeMeQuery = queryOptions({ queryKey: backofficeKeys.me.all, queryFn: employeeApi.me });

export const useEmployeeMe = () => useQuery(employeeMeQuery);

export function useUpdateEmployeeMe() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: employeeApi.updateMe,
    // The Employees table shows this employee too.
    onSuccess: () =>
      Promise.all([backofficeKeys.me.all, backofficeKeys.employees.all].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}

export const useChangeEmployeePassword = () => useMutation({ mutationFn: employeeApi.changePassword });

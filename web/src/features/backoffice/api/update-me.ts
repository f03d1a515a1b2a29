import { api, withSession } from '../../../api/client';
import type { BodyOf } from '../../../api/types';
import { useBackofficeMutation } from './backoffice-mutation';

export type EmployeeInfo = BodyOf<'updateOwnEmployeeInfo'>;

const updateEmployeeMe = (body: EmployeeInfo) => withSession('Employee', () => api.PUT('/api/employee', { body }));

/** The Employees table shows this employee too. */
export const useUpdateEmployeeMe = () => useBackofficeMutation(updateEmployeeMe, ['me', 'employees']);

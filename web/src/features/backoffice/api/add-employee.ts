import { api, withSession } from '../../../api/client';
import type { BodyOf } from '../../../api/types';
import { useBackofficeMutation } from './backoffice-mutation';

export type NewEmployee = BodyOf<'addEmployee'>;

const addEmployee = (body: NewEmployee) => withSession('Employee', () => api.POST('/api/employee', { body }));

export const useAddEmployee = () => useBackofficeMutation(addEmployee, ['employees']);

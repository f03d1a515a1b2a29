import { api, withSession } from '../../../api/client';
import { useBackofficeMutation } from './backoffice-mutation';

const deleteEmployee = (id: number) => withSession('Employee', () => api.DELETE('/api/employee/{id}', { params: { path: { id } } }));

export const useDeleteEmployee = () => useBackofficeMutation(deleteEmployee, ['employees']);

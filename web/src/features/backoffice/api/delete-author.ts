import { api, withSession } from '../../../api/client';
import { useBackofficeMutation } from './backoffice-mutation';

const deleteAuthor = (id: number) => withSession('Employee', () => api.DELETE('/api/employee/author/{id}', { params: { path: { id } } }));

export const useDeleteAuthor = () => useBackofficeMutation(deleteAuthor, ['authors']);

import { api, withSession } from '../../../api/client';
import { useBackofficeMutation } from './backoffice-mutation';

const deleteMessage = (id: number) => withSession('Employee', () => api.DELETE('/api/employee/contact/{id}', { params: { path: { id } } }));

export const useDeleteMessage = () => useBackofficeMutation(deleteMessage, ['messages']);

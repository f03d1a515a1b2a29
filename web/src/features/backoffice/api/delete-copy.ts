import { api, withSession } from '../../../api/client';
import { useBackofficeMutation } from './backoffice-mutation';

const deleteCopy = (id: number) => withSession('Employee', () => api.DELETE('/api/employee/book-copy/{id}', { params: { path: { id } } }));

/** The dashboard counts the copies. */
export const useDeleteCopy = () => useBackofficeMutation(deleteCopy, ['copies', 'dashboard']);

import { api, withSession } from '../../../api/client';
import { useBackofficeMutation } from './backoffice-mutation';

const deleteBook = (id: number) => withSession('Employee', () => api.DELETE('/api/employee/book/{id}', { params: { path: { id } } }));

/** The book's copies go with it, and the dashboard counts both. */
export const useDeleteBook = () => useBackofficeMutation(deleteBook, ['books', 'copies', 'lowStock', 'dashboard']);

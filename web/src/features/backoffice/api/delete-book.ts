import { api, withSession } from '../../../api/client';
import { refusedAsStale, useBackofficeMutation, versionRead } from './backoffice-mutation';

/** The delete says which version it read (If-Match): a book another employee changed meanwhile is refused (412), not deleted unseen. */
const deleteBook = ({ id, version }: { id: number; version: number }) =>
  withSession('Employee', () => api.DELETE('/api/employee/book/{id}', { params: { path: { id }, header: versionRead(version) } }));

/** The book's copies go with it, and the dashboard counts both; a book changed since it was read (412) is read again. */
export const useDeleteBook = () =>
  useBackofficeMutation(deleteBook, ['books', 'copies', 'lowStock', 'dashboard'], { staleWhen: refusedAsStale });

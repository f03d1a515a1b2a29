// The Book Copies table: a page of copies, and a search by id (copies have no name search).
import { api, withSession } from '../../../api/client';
import { tableQueries } from './table-queries';

export const copiesTable = tableQueries('copies', 'booksCopies', {
  page: (path) => withSession('Employee', () => api.GET('/api/employee/book-copy/{pageNumber},{pageSize}', { params: { path } })),
  byId: (id) => withSession('Employee', () => api.GET('/api/employee/book-copy/by-id/{id}', { params: { path: { id } } })),
});

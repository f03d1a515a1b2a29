// The Books table: a page of books, and a search by id or name.
import { api, withSession } from '../../../api/client';
import { tableQueries } from './table-queries';

export const booksTable = tableQueries('books', 'books', {
  page: (path) => withSession('Employee', () => api.GET('/api/employee/book/{pageNumber},{pageSize}', { params: { path } })),
  byId: (id) => withSession('Employee', () => api.GET('/api/employee/book/by-id/{id}', { params: { path: { id } } })),
  byName: (name) => withSession('Employee', () => api.GET('/api/employee/book/by-name/{name}', { params: { path: { name } } })),
});

// The Authors table: a page of authors, and a search by id or name.
import { api, withSession } from '../../../api/client';
import { tableQueries } from './table-queries';

export const authorsTable = tableQueries('authors', 'authors', {
  page: (path) => withSession('Employee', () => api.GET('/api/employee/author/{pageNumber},{pageSize}', { params: { path } })),
  byId: (id) => withSession('Employee', () => api.GET('/api/employee/author/by-id/{id}', { params: { path: { id } } })),
  byName: (name) => withSession('Employee', () => api.GET('/api/employee/author/by-name/{name}', { params: { path: { name } } })),
});

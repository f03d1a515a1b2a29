// The Authors table: a page of authors, and a search by id or name.
import { api, withSession } from '../../../api/client';
import type { Schemas } from '../../../api/types';
import { ADMIN_TABLE_PAGE_SIZE } from '../../../lib/constants';
import { tablePageQuery, tableSearchQuery } from './table-queries';

export type Author = Schemas['Author'];

export const authorsPageQuery = (page: number) =>
  tablePageQuery('authors', page, async (pageNumber) => {
    const { authors, totalPages } = await withSession('Employee', () =>
      api.GET('/api/employee/author/{pageNumber},{pageSize}', { params: { path: { pageNumber, pageSize: ADMIN_TABLE_PAGE_SIZE } } }),
    );
    return { rows: authors, totalPages };
  });

export const findAuthorsQuery = (text: string) =>
  tableSearchQuery<Author>('authors', text, {
    byId: (id) => withSession('Employee', () => api.GET('/api/employee/author/by-id/{id}', { params: { path: { id } } })),
    byName: (name) => withSession('Employee', () => api.GET('/api/employee/author/by-name/{name}', { params: { path: { name } } })),
  });

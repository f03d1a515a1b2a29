// The Books table: a page of books, and a search by id or name.
import { api, withSession } from '../../../api/client';
import type { Schemas } from '../../../api/types';
import { ADMIN_TABLE_PAGE_SIZE } from '../../../lib/constants';
import { tablePageQuery, tableSearchQuery } from './table-queries';

export type Book = Schemas['Book'];

export const booksPageQuery = (page: number) =>
  tablePageQuery('books', page, async (pageNumber) => {
    const { books, totalPages } = await withSession('Employee', () =>
      api.GET('/api/employee/book/{pageNumber},{pageSize}', { params: { path: { pageNumber, pageSize: ADMIN_TABLE_PAGE_SIZE } } }),
    );
    return { rows: books, totalPages };
  });

export const findBooksQuery = (text: string) =>
  tableSearchQuery<Book>('books', text, {
    byId: (id) => withSession('Employee', () => api.GET('/api/employee/book/by-id/{id}', { params: { path: { id } } })),
    byName: (name) => withSession('Employee', () => api.GET('/api/employee/book/by-name/{name}', { params: { path: { name } } })),
  });

// The Book Copies table: a page of copies, and a search by id (copies have no name search).
import { api, withSession } from '../../../api/client';
import type { Schemas } from '../../../api/types';
import { ADMIN_TABLE_PAGE_SIZE } from '../../../lib/constants';
import { tablePageQuery, tableSearchQuery } from './table-queries';

export type BookCopy = Schemas['BookCopyAdmin'];

export const copiesPageQuery = (page: number) =>
  tablePageQuery('copies', page, async (pageNumber) => {
    const { booksCopies, totalPages } = await withSession('Employee', () =>
      api.GET('/api/employee/book-copy/{pageNumber},{pageSize}', { params: { path: { pageNumber, pageSize: ADMIN_TABLE_PAGE_SIZE } } }),
    );
    return { rows: booksCopies, totalPages };
  });

export const findCopiesQuery = (text: string) =>
  tableSearchQuery<BookCopy>('copies', text, {
    byId: (id) => withSession('Employee', () => api.GET('/api/employee/book-copy/by-id/{id}', { params: { path: { id } } })),
  });

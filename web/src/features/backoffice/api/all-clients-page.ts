// The two lists of All Clients, paged ALL_CLIENTS_PAGE_SIZE rows at a time.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { ALL_CLIENTS_PAGE_SIZE } from '../../../lib/constants';
import { backofficeKeys } from './query-keys';

/**
 * All Clients and Client Messages answer a bare array when called without paging (as the spec's
 * screens read them); called with paging, as the back-office does, they answer one page.
 */
export const allClientsPageQuery = <Page extends object, Row>(
  resource: 'clients' | 'messages',
  pageNumber: number,
  fetchPage: (query: { pageNumber: number; pageSize: number }) => Promise<Row[] | Page>,
) =>
  queryOptions({
    queryKey: backofficeKeys[resource].page(pageNumber),
    queryFn: async (): Promise<Page> => {
      const data = await fetchPage({ pageNumber, pageSize: ALL_CLIENTS_PAGE_SIZE });
      if (Array.isArray(data)) throw new Error('expected a page: the list was called without paging');
      return data;
    },
    placeholderData: keepPreviousData,
  });

// A page of All Clients.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, withSession } from '../../../api/client';
import { ALL_CLIENTS_PAGE_SIZE } from '../../../lib/constants';
import { onePage } from './paged';
import { backofficeKeys } from './query-keys';

export const clientsPageQuery = (pageNumber: number) =>
  queryOptions({
    queryKey: backofficeKeys.clients.page(pageNumber),
    queryFn: () =>
      onePage(
        withSession('Employee', () =>
          api.GET('/api/employee/statistics/clients/', { params: { query: { pageNumber, pageSize: ALL_CLIENTS_PAGE_SIZE } } }),
        ),
      ),
    placeholderData: keepPreviousData,
  });

export const useClientsPage = (page: number) => useQuery(clientsPageQuery(page));

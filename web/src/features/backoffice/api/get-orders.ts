// A page of the back-office's orders, newest first.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, withSession } from '../../../api/client';
import { BACKOFFICE_ORDERS_PAGE_SIZE } from '../../../lib/constants';
import { backofficeKeys } from './query-keys';

export const ordersPageQuery = (pageNumber: number) =>
  queryOptions({
    queryKey: backofficeKeys.orders.page(pageNumber),
    queryFn: () =>
      withSession('Employee', () =>
        api.GET('/api/employee/order/{pageNumber},{pageSize}', { params: { path: { pageNumber, pageSize: BACKOFFICE_ORDERS_PAGE_SIZE } } }),
      ),
    placeholderData: keepPreviousData,
  });

export const useOrdersPage = (page: number) => useQuery(ordersPageQuery(page));

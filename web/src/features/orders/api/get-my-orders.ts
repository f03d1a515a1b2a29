// A page of My Orders, five to a page, newest first (spec 2.12).
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, withSession } from '../../../api/client';
import { CLIENT_ORDERS_PAGE_SIZE } from '../../../lib/constants';
import { clientKeys } from '../../../lib/query-keys';
import { useClientQuery } from '../../../lib/session';

export const myOrdersQuery = (pageNumber: number) =>
  queryOptions({
    queryKey: clientKeys.ordersPage(pageNumber),
    queryFn: () =>
      withSession('Client', () =>
        api.GET('/api/client/orders/{pageNumber},{pageSize}', { params: { path: { pageNumber, pageSize: CLIENT_ORDERS_PAGE_SIZE } } }),
      ),
  });

export function useMyOrders(page: number) {
  return useClientQuery({ ...myOrdersQuery(page), placeholderData: keepPreviousData });
}

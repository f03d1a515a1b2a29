// A page of the Low Stock report (Admin and Seller, beyond the spec), with the threshold it used.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, withSession } from '../../../api/client';
import { ADMIN_TABLE_PAGE_SIZE } from '../../../lib/constants';
import { backofficeKeys } from './query-keys';

export const lowStockQuery = (pageNumber: number) =>
  queryOptions({
    queryKey: backofficeKeys.lowStock.page(pageNumber),
    queryFn: () =>
      withSession('Employee', () =>
        api.GET('/api/employee/low-stock', { params: { query: { pageNumber, pageSize: ADMIN_TABLE_PAGE_SIZE } } }),
      ),
    placeholderData: keepPreviousData,
  });

export const useLowStock = (page: number) => useQuery(lowStockQuery(page));

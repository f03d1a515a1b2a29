// A page of the Low Stock report (Admin and Seller, beyond the spec), with the threshold it used.
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { ADMIN_TABLE_PAGE_SIZE } from '../../../lib/constants';
import { employeePageQuery } from './employee-page-query';
import { backofficeKeys } from './query-keys';

export const lowStockQuery = (pageNumber: number) =>
  employeePageQuery(backofficeKeys.lowStock.page(pageNumber), () =>
    api.GET('/api/employee/low-stock', { params: { query: { pageNumber, pageSize: ADMIN_TABLE_PAGE_SIZE } } }),
  );

export const useLowStock = (page: number) => useQuery(lowStockQuery(page));

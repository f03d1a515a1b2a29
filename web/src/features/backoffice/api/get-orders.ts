// A page of the back-office's orders, newest first.
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { BACKOFFICE_ORDERS_PAGE_SIZE } from '../../../lib/constants';
import { employeePageQuery } from './employee-page-query';
import { backofficeKeys } from './query-keys';

export const ordersPageQuery = (pageNumber: number) =>
  employeePageQuery(backofficeKeys.orders.page(pageNumber), () =>
    api.GET('/api/employee/order/{pageNumber},{pageSize}', { params: { path: { pageNumber, pageSize: BACKOFFICE_ORDERS_PAGE_SIZE } } }),
  );

export const useOrdersPage = (page: number) => useQuery(ordersPageQuery(page));

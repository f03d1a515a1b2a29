// A page of one copy's stock movements (Admin and Seller, beyond the spec): each change of its stock and why.
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { employeePageQuery } from './employee-page-query';
import { backofficeKeys } from './query-keys';

export const STOCK_MOVEMENTS_PAGE_SIZE = 20;

export const stockMovementsQuery = (copyId: number, pageNumber: number) =>
  employeePageQuery(backofficeKeys.lowStock.detail({ movements: copyId, pageNumber }), () =>
    api.GET('/api/employee/low-stock/{copyId}/movements', {
      params: { path: { copyId }, query: { pageNumber, pageSize: STOCK_MOVEMENTS_PAGE_SIZE } },
    }),
  );

export const useStockMovements = (copyId: number, page: number) => useQuery(stockMovementsQuery(copyId, page));

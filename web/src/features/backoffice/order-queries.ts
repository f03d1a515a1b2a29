// The back-office orders: a page of them, and the status change, which owns its invalidation.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { BACKOFFICE_ORDERS_PAGE_SIZE } from '../../lib/constants';
import { employeeApi } from './api';
import { backofficeKeys } from './query-keys';

export type BackofficeOrder = Awaited<ReturnType<typeof employeeApi.orders>>['orders'][number];

export const useBackofficeOrders = (page: number) =>
  useQuery({
    queryKey: backofficeKeys.orders.page(page),
    queryFn: () => employeeApi.orders(page, BACKOFFICE_ORDERS_PAGE_SIZE),
    placeholderData: keepPreviousData,
  });

export function useSetOrderStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ orderId, status }: { orderId: number; status: 'Processing' | 'Shipped' }) => employeeApi.setOrderStatus(orderId, status),
    // The card reads its status from the orders page; the dashboard lists recent orders with theirs.
    onSuccess: () =>
      Promise.all([backofficeKeys.orders.all, backofficeKeys.dashboard.all].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}

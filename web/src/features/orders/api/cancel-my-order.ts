// Cancelling one of my orders while it is pending or Processing (beyond the spec).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, withSession } from '../../../api/client';
import { catalogKeys, clientKeys } from '../../../lib/query-keys';

const cancelMyOrder = (orderId: number) =>
  withSession('Client', () => api.POST('/api/client/orders/{orderId}/cancel', { params: { path: { orderId } } }));

/**
 * My Orders shows the order's status once this settles: the new one, or after a refusal the one it
 * has now (it may have shipped meanwhile). The books' stock is back in the catalog.
 */
export function useCancelMyOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelMyOrder,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: catalogKeys.all });
      return queryClient.invalidateQueries({ queryKey: clientKeys.orders });
    },
  });
}

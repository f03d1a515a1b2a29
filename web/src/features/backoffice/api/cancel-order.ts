import { api, withSession } from '../../../api/client';
import { refusedAsMovedOn, useBackofficeMutation } from './backoffice-mutation';

/** `from`: the status the card shows, so that an order another employee moved on meanwhile is not cancelled unseen. */
const cancelOrder = ({ orderId, reason, from }: { orderId: number; reason: string; from: string }) =>
  withSession('Employee', () =>
    api.POST('/api/employee/order/{orderId}/cancel', { params: { path: { orderId }, query: { from } }, body: { reason } }),
  );

/**
 * The order's status, the stock of its copies, the sales they counted in and the audit log all change;
 * a refusal because the order is not as shown (409) reads the orders again, as a status change's does.
 */
export const useCancelOrder = () =>
  useBackofficeMutation(cancelOrder, ['orders', 'dashboard', 'charts', 'lowStock', 'copies'], { staleWhen: refusedAsMovedOn });

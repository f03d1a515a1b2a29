import { api, withSession } from '../../../api/client';
import { refusedAsMovedOn, useBackofficeMutation } from './backoffice-mutation';

export type SettableStatus = 'Processing' | 'Shipped';

/** `from`: the status the card shows, so that an order another employee moved on meanwhile is refused, not set back. */
const setOrderStatus = ({ orderId, status, from }: { orderId: number; status: SettableStatus; from: string }) =>
  withSession('Employee', () =>
    api.PUT('/api/employee/order/set-status/{orderId},{status}', { params: { path: { orderId, status }, query: { from } } }),
  );

/**
 * The card reads its status from the orders page; the dashboard lists recent orders with theirs, and
 * its status-mix chart counts them; the audit log records the change. A
 * refusal because the order's status is not the one shown (409: moved on, or kept) reads them again
 * too, so the card shows the status the order has. It settles before they come back: the card says
 * the change at once, and a next change starts from the status this one set (orders-page.tsx).
 */
export const useSetOrderStatus = () =>
  useBackofficeMutation(setOrderStatus, ['orders', 'dashboard', 'charts'], {
    staleWhen: refusedAsMovedOn,
    settleBeforeRefresh: true,
  });

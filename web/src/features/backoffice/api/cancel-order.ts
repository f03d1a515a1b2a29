import { api, withSession } from '../../../api/client';
import { useBackofficeMutation } from './backoffice-mutation';

const cancelOrder = ({ orderId, reason }: { orderId: number; reason: string }) =>
  withSession('Employee', () => api.POST('/api/employee/order/{orderId}/cancel', { params: { path: { orderId } }, body: { reason } }));

/** The order's status, the stock of its copies, the sales they counted in and the audit log all change. */
export const useCancelOrder = () => useBackofficeMutation(cancelOrder, ['orders', 'dashboard', 'charts', 'lowStock', 'copies']);

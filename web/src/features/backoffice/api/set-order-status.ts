import { api, withSession } from '../../../api/client';
import { useBackofficeMutation } from './backoffice-mutation';

export type SettableStatus = 'Processing' | 'Shipped';

const setOrderStatus = ({ orderId, status }: { orderId: number; status: SettableStatus }) =>
  withSession('Employee', () => api.PUT('/api/employee/order/set-status/{orderId},{status}', { params: { path: { orderId, status } } }));

/** The card reads its status from the orders page; the dashboard lists recent orders with theirs. */
export const useSetOrderStatus = () => useBackofficeMutation(setOrderStatus, ['orders', 'dashboard']);

import { api, withSession } from '../../../api/client';
import { useBackofficeMutation } from './backoffice-mutation';

const setThreshold = (threshold: number) =>
  withSession('Employee', () => api.PUT('/api/employee/low-stock/threshold', { body: { threshold } }));

/** The list itself moves with the threshold. */
export const useSetLowStockThreshold = () => useBackofficeMutation(setThreshold, ['lowStock']);

import { api, withSession } from '../../../api/client';
import { useBackofficeMutation } from './backoffice-mutation';

const restockCopy = ({ copyId, add }: { copyId: number; add: number }) =>
  withSession('Employee', () => api.POST('/api/employee/low-stock/{copyId}/restock', { params: { path: { copyId } }, body: { add } }));

/** A restock moves the copy on the Low Stock list and in the Book Copies table. */
export const useRestockCopy = () => useBackofficeMutation(restockCopy, ['lowStock', 'copies']);

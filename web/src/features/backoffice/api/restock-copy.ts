import { api, withSession } from '../../../api/client';
import { useBackofficeMutation } from './backoffice-mutation';

/** `requestKey`: one per restock meant, so a retry of one already done adds nothing twice. */
const restockCopy = ({ copyId, add, requestKey }: { copyId: number; add: number; requestKey: string }) =>
  withSession('Employee', () =>
    api.POST('/api/employee/low-stock/{copyId}/restock', {
      params: { path: { copyId } },
      headers: { 'idempotency-key': requestKey },
      body: { add },
    }),
  );

/** A restock moves the copy on the Low Stock list and in the Book Copies table. */
export const useRestockCopy = () => useBackofficeMutation(restockCopy, ['lowStock', 'copies']);

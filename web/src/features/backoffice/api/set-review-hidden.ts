import { api, withSession } from '../../../api/client';
import { refusedAsStale, useBackofficeMutation } from './backoffice-mutation';

/** `updatedAt` is the review's as the list showed it: words changed since are not shown unread (412). */
const setReviewHidden = ({ id, hidden, updatedAt }: { id: number; hidden: boolean; updatedAt: string }) =>
  withSession('Employee', () => api.PUT('/api/employee/review/{id}', { params: { path: { id } }, body: { hidden, updatedAt } }));

/**
 * The list shows each review's state, and after a 412 its words now. The storefront's copy of the
 * reviews is the shopper's cache, not this one.
 */
export const useSetReviewHidden = () => useBackofficeMutation(setReviewHidden, ['reviews'], { staleWhen: refusedAsStale });

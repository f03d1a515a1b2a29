import { api, withSession } from '../../../api/client';
import { useBackofficeMutation } from './backoffice-mutation';

const setReviewHidden = ({ id, hidden }: { id: number; hidden: boolean }) =>
  withSession('Employee', () => api.PUT('/api/employee/review/{id}', { params: { path: { id } }, body: { hidden } }));

/** The list shows each review's state. The storefront's copy of the reviews is the shopper's cache, not this one. */
export const useSetReviewHidden = () => useBackofficeMutation(setReviewHidden, ['reviews']);

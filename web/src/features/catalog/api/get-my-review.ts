import { queryOptions } from '@tanstack/react-query';
import { api, withSession } from '../../../api/client';
import { clientKeys } from '../../../lib/query-keys';
import { useClientQuery } from '../../../lib/session';

export const myReviewQuery = (copyId: number) =>
  queryOptions({
    queryKey: clientKeys.review(copyId),
    queryFn: () => withSession('Client', () => api.GET('/api/client/reviews/{copyId}', { params: { path: { copyId } } })),
  });

/** Only a signed-in client has a rating to read. */
export function useMyReview(copyId: number) {
  return useClientQuery(myReviewQuery(copyId));
}

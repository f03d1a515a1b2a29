import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, withSession } from '../../../api/client';
import type { BodyOf } from '../../../api/types';
import { catalogKeys, clientKeys } from '../../../lib/query-keys';

const writeReview = (copyId: number, body: BodyOf<'writeMyReview'>) =>
  withSession('Client', () => api.PUT('/api/client/reviews/{copyId}', { params: { path: { copyId } }, body }));

/** My rating replaces the cached one; the book's reviews and its average are read again. */
export function useWriteReview(copyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BodyOf<'writeMyReview'>) => writeReview(copyId, body),
    onSuccess: (mine) => {
      queryClient.setQueryData(clientKeys.review(copyId), mine);
      void queryClient.invalidateQueries({ queryKey: catalogKeys.reviews(copyId) });
      void queryClient.invalidateQueries({ queryKey: catalogKeys.book(copyId) });
    },
  });
}

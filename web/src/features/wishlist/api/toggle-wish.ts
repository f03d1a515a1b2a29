import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, withSession } from '../../../api/client';
import { clientKeys } from '../../../lib/query-keys';

const toggleWish = ({ copyId, wished }: { copyId: number; wished: boolean }) =>
  withSession('Client', () =>
    wished
      ? api.PUT('/api/client/wishlist/{copyId}', { params: { path: { copyId } } })
      : api.DELETE('/api/client/wishlist/{copyId}', { params: { path: { copyId } } }),
  );

/** Wishes for a copy, or stops; the wishlist (every heart, and the Wishlist screen) is read again. */
export function useToggleWish() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: toggleWish,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: clientKeys.wishlist }),
  });
}

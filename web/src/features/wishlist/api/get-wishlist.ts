import { queryOptions } from '@tanstack/react-query';
import { api, withSession } from '../../../api/client';
import { clientKeys } from '../../../lib/query-keys';
import { useClientQuery } from '../../../lib/session';

export const wishlistQuery = queryOptions({
  queryKey: clientKeys.wishlist,
  queryFn: () => withSession('Client', () => api.GET('/api/client/wishlist')),
});

/** The signed-in client's wishlist (at most 200 copies: every card's heart reads it). */
export function useWishlist() {
  return useClientQuery(wishlistQuery);
}

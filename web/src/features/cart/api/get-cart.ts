// The client's cart (spec 3 and 4): a server load replaces the whole cart; every change refetches it.
import { queryOptions } from '@tanstack/react-query';
import { api, withSession } from '../../../api/client';
import { clientKeys } from '../../../lib/query-keys';
import { useClientQuery, useSession } from '../../../lib/session';

export const cartQuery = queryOptions({
  queryKey: clientKeys.cart,
  queryFn: () => withSession('Client', () => api.GET('/api/client/cart')),
});

export function useCart() {
  const { loggedIn } = useSession();
  const query = useClientQuery(cartQuery);
  const items = loggedIn ? (query.data ?? []) : [];
  return { ...query, items, quantity: items.reduce((sum, item) => sum + item.totalQuantity, 0) };
}
export type CartLine = NonNullable<ReturnType<typeof useCart>['data']>[number];

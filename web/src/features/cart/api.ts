// The client's cart (spec 3 and 4): a server load replaces the whole cart; every change refetches.
import { FORM_MESSAGES } from '@bookshop/rules';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, api, withSession } from '../../api/client';
import { useSession } from '../../lib/session';

export const cartQuery = queryOptions({
  queryKey: ['client', 'cart'],
  queryFn: () => withSession('Client', () => api.GET('/api/client/cart')),
});

export function useCart() {
  const { loggedIn } = useSession();
  const query = useQuery({ ...cartQuery, enabled: loggedIn });
  const items = loggedIn ? (query.data ?? []) : [];
  return { ...query, items, quantity: items.reduce((sum, item) => sum + item.totalQuantity, 0) };
}
export type CartLine = NonNullable<ReturnType<typeof useCart>['data']>[number];

/** The messages of spec section 8 for Add to Cart. */
export function addToCartMessage(error: unknown): string {
  if (error instanceof ApiError && error.code === 'OUT_OF_STOCK') return FORM_MESSAGES.outOfStock;
  if (error instanceof ApiError && error.status === 401) return 'You must be logged in to add to cart.';
  return 'Failed to add to cart.';
}

function useCartMutation<TVars>(run: (vars: TVars) => Promise<unknown>) {
  const queryClient = useQueryClient();
  const { markSignedOut } = useSession();
  return useMutation({
    mutationFn: run,
    onError: (error) => {
      if (error instanceof ApiError && error.status === 401) markSignedOut();
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['client', 'cart'] }),
  });
}

export const useAddToCart = () =>
  useCartMutation((bookCopyId: number) =>
    withSession('Client', () => api.POST('/api/client/cart/{bookCopyId}', { params: { path: { bookCopyId } } })),
  );

export const useUpdateCartLine = () =>
  useCartMutation((vars: { cartItemId: number; quantity: number }) =>
    withSession('Client', () => api.PUT('/api/client/cart', { body: vars })),
  );

export const useRemoveCartLine = () =>
  useCartMutation((cartItemId: number) =>
    withSession('Client', () => api.DELETE('/api/client/cart/{cartItemId}', { params: { path: { cartItemId } } })),
  );

export function usePlaceOrder() {
  const queryClient = useQueryClient();
  const { markSignedOut } = useSession();
  return useMutation({
    mutationFn: (vars: {
      body: { shipmentAddress: string; totalPrice: number; totalQuantity: number; cartItemsIds: number[] };
      idempotencyKey: string;
    }) =>
      withSession('Client', () => api.POST('/api/client/orders', { body: vars.body, headers: { 'idempotency-key': vars.idempotencyKey } })),
    onError: (error) => {
      if (error instanceof ApiError && error.status === 401) markSignedOut();
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: ['client'] });
      void queryClient.invalidateQueries({ queryKey: ['catalog'] });
    },
  });
}

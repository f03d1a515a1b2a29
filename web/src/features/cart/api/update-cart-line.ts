import { useMutationState } from '@tanstack/react-query';
import { api, withSession } from '../../../api/client';
import type { BodyOf } from '../../../api/types';
import { clientKeys } from '../../../lib/query-keys';
import { useCartMutation } from './cart-mutation';

const updateCartLine = (body: BodyOf<'updateCartItem'>) => withSession('Client', () => api.PUT('/api/client/cart', { body }));

/** The cart lines' quantity changes, by this key: the cart screen waits on each line's own. */
export const updateCartLineKey = [...clientKeys.cart, 'update-line'] as const;

export const useUpdateCartLine = () => useCartMutation(updateCartLine, { mutationKey: updateCartLineKey });

/** The ids of the cart lines whose quantity change is still out. */
export const useLinesBeingUpdated = () =>
  useMutationState({
    filters: { mutationKey: updateCartLineKey, status: 'pending' },
    select: (mutation) => (mutation.state.variables as BodyOf<'updateCartItem'>).cartItemId,
  });

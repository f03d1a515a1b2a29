import { api, withSession } from '../../../api/client';
import { useCartMutation } from './cart-mutation';

const removeCartLine = (cartItemId: number) =>
  withSession('Client', () => api.DELETE('/api/client/cart/{cartItemId}', { params: { path: { cartItemId } } }));

export const useRemoveCartLine = () => useCartMutation(removeCartLine);

import { FORM_MESSAGES } from '@bookshop/rules';
import { ApiError, api, withSession } from '../../../api/client';
import { useCartMutation } from './cart-mutation';

const addToCart = (bookCopyId: number) =>
  withSession('Client', () => api.POST('/api/client/cart/{bookCopyId}', { params: { path: { bookCopyId } } }));

export const useAddToCart = () => useCartMutation(addToCart);

/** The messages of spec section 8 for Add to Cart. */
export function addToCartMessage(error: unknown): string {
  if (error instanceof ApiError && error.code === 'OUT_OF_STOCK') return FORM_MESSAGES.outOfStock;
  if (error instanceof ApiError && error.status === 401) return 'You must be logged in to add to cart.';
  return 'Failed to add to cart.';
}

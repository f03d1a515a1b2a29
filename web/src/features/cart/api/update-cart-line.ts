import { api, withSession } from '../../../api/client';
import type { BodyOf } from '../../../api/types';
import { useCartMutation } from './cart-mutation';

const updateCartLine = (body: BodyOf<'updateCartItem'>) => withSession('Client', () => api.PUT('/api/client/cart', { body }));

export const useUpdateCartLine = () => useCartMutation(updateCartLine);

import { api, withSession } from '../../../api/client';
import type { BodyOf } from '../../../api/types';
import { catalogKeys, clientKeys } from '../../../lib/query-keys';
import { useCartMutation } from './cart-mutation';

const placeOrder = ({ body, idempotencyKey }: { body: BodyOf<'placeOrder'>; idempotencyKey: string }) =>
  withSession('Client', () => api.POST('/api/client/orders', { body, headers: { 'idempotency-key': idempotencyKey } }));

/**
 * An order empties the cart, adds to My Orders, and moves stock and sales the catalog shows; the
 * order's outcome is told at once, while those refetch.
 */
export const usePlaceOrder = () => useCartMutation(placeOrder, { invalidates: [clientKeys.all, catalogKeys.all], awaitRefetch: false });

import { CANCEL_REASON_MAX, ORDER_LINES_MAX } from '@bookshop/rules';
import { type Static, Type } from 'typebox';
import { Body, ImageUrl, PositiveInt } from './common.ts';

export const ClientOrder = Type.Object(
  {
    id: Type.Integer(),
    createdAt: Type.String({ format: 'date-time' }),
    status: Type.String(),
    totalQuantity: Type.Integer(),
    totalPrice: Type.Number(),
    shipmentAddress: Type.String(),
    cancellable: Type.Boolean({
      description:
        'Whether the order can still be cancelled: pending or Processing, and never shipped (one set back to Processing after it shipped cannot be)',
    }),
  },
  { $id: 'ClientOrder' },
);

/** A client's order as the back-office sees it: the client's view, its client and its lines as sold. */
export const BackofficeOrder = Type.Object(
  {
    ...ClientOrder.properties,
    clientId: Type.Integer(),
    items: Type.Array(
      Type.Object({
        id: Type.Integer(),
        name: Type.String(),
        imageUrl: ImageUrl,
        quantity: Type.Integer(),
        totalPrice: Type.Number({ description: 'Line total' }),
      }),
    ),
  },
  { $id: 'BackofficeOrder' },
);

/** Checkout (spec 5.4). The address stays optional here: its absence has the spec's own message. */
export const CheckoutBody = Body({
  // What is parsed at most; the rule module's 500 characters (trimmed) answer with the screen's words.
  shipmentAddress: Type.Optional(Type.String({ maxLength: 2000 })),
  totalPrice: Type.Number({ minimum: 0 }),
  totalQuantity: Type.Integer({ minimum: 1 }),
  cartItemsIds: Type.Array(PositiveInt, { maxItems: ORDER_LINES_MAX }),
});
export type CheckoutInput = Static<typeof CheckoutBody>;

/** Staff cancel an order with a reason, which the audit log and the client's e-mail carry (beyond the spec). */
export const CancelOrderBody = Body({
  reason: Type.String({
    minLength: 1,
    maxLength: CANCEL_REASON_MAX,
    description: 'Why the shop cancels the order; the client reads it in the e-mail',
  }),
});

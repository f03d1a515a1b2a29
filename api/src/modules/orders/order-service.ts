// Checkout is one transaction: lock the chosen cart lines, check the client's totals against the
// server's, take each book's stock conditionally (in book-copy order, so crossing carts never
// deadlock), record the order with names and prices as sold, and empty those lines. Any failure
// rolls everything back.

import { createHash } from 'node:crypto';
import { canStillBeCancelled, STOCKLESS_STATUSES, shippingAddressProblem } from '@bookshop/rules';
import { coverUrl } from '../../lib/cover.ts';
import { retryLostRace } from '../../lib/database-errors.ts';
import { fromCents, orderTotalCents, toCents, toMoney, tooLargeForAnOrder } from '../../lib/money.ts';
import { refuse } from '../../lib/refusals.ts';
import type { CheckoutInput } from '../../schemas/orders.ts';
import type { EmitCatalogEvent } from '../catalog/catalog-events.ts';
import type { BackofficeOrderRow } from './order-queries.ts';
import type { ClientOrderPage, OrderRepository } from './order-repository.ts';

export const BACKOFFICE_STATUSES = ['Processing', 'Shipped'] as const;

export const toClientOrder = ({ shippedAt, ...o }: Omit<ClientOrderPage, 'totalPrice'> & { totalPrice: { toString(): string } }) => ({
  ...o,
  totalPrice: toMoney(o.totalPrice),
  cancellable: canStillBeCancelled({ status: o.status, shippedAt }),
});

export const toBackofficeOrder = (o: BackofficeOrderRow) => ({
  ...toClientOrder(o),
  clientId: o.clientId,
  items: o.items.map((i) => ({
    id: i.id,
    name: i.name,
    imageUrl: coverUrl(i.imageUrl, i.name),
    quantity: i.quantity,
    totalPrice: fromCents(toCents(i.unitPrice) * i.quantity),
  })),
});

/**
 * What makes two checkouts the same request: the address, the totals and the set of cart lines,
 * whatever the order or spelling of the JSON they came in.
 */
function checkoutRequestHash(address: string, input: CheckoutInput, ids: number[]) {
  const canonical = JSON.stringify([address, toCents(input.totalPrice), input.totalQuantity, [...ids].sort((a, b) => a - b)]);
  return createHash('sha256').update(canonical).digest('hex');
}

/** What an Idempotency-Key placed before (repo.findByIdempotencyKey), if anything. */
export type PlacedWithKey = Awaited<ReturnType<OrderRepository['findByIdempotencyKey']>>;

export function orderService(repo: OrderRepository, emit: EmitCatalogEvent) {
  /**
   * `placedEarlier` is the key's earlier order if the caller already asked, for this client and
   * this key (the route starts that read while the session is checked); without it, checkout asks.
   */
  async function checkout(clientId: number, input: CheckoutInput, idempotencyKey?: string, placedEarlier?: Promise<PlacedWithKey>) {
    const address = input.shipmentAddress?.trim() ?? '';
    const addressProblem = shippingAddressProblem(address);
    if (addressProblem) throw refuse.form(addressProblem, 'INVALID_ADDRESS');
    const ids = [...new Set(input.cartItemsIds)];
    if (!ids.length) throw refuse.emptyOrder();

    const requestHash = idempotencyKey ? checkoutRequestHash(address, input, ids) : null;
    /** A retry with the key gets the first order; the key with another request is a client bug, refused. */
    const replay = ({
      idempotencyRequestHash,
      ...earlier
    }: Parameters<typeof toClientOrder>[0] & { idempotencyRequestHash: string | null }) => {
      if (idempotencyRequestHash !== null && idempotencyRequestHash !== requestHash) {
        throw refuse.idempotencyKeyReused('order');
      }
      return toClientOrder(earlier);
    };

    if (idempotencyKey) {
      const earlier = await (placedEarlier ?? repo.findByIdempotencyKey(clientId, idempotencyKey));
      if (earlier) return replay(earlier);
    }

    try {
      // The day's counts its lines raise (sales_daily, its categories) are taken in another order than a
      // cancel's of the same day: a deadlock's victim runs again, whole (nothing of it was kept).
      const placed = await retryLostRace(() =>
        repo.transaction(async (tx) => {
          const lines = await repo.lockCartLines(tx, clientId, ids);
          if (lines.length !== ids.length) throw refuse.linesGone();
          const withdrawn = lines.find((line) => !line.is_available);
          if (withdrawn) {
            throw refuse.lineWithdrawn(withdrawn.name, withdrawn.book_copy_id);
          }

          const totalCents = orderTotalCents(lines);
          const totalQuantity = lines.reduce((sum, l) => sum + l.quantity, 0);
          if (tooLargeForAnOrder(totalCents)) throw refuse.orderTooLarge();
          if (toCents(input.totalPrice) !== totalCents || input.totalQuantity !== totalQuantity) {
            throw refuse.cartChanged({ totalPrice: fromCents(totalCents), totalQuantity });
          }

          // The copies are locked: the stock read is the stock the statement below will see.
          const short = lines.find((line) => line.quantity > line.stock);
          if (short) throw refuse.lineShort(short.name, short.book_copy_id);

          const { left: taken, orderId } = await repo.takeStock(tx, lines);
          const notServed = lines.find((line) => !taken.has(line.book_copy_id));
          if (notServed) throw refuse.lineShort(notServed.name, notServed.book_copy_id);
          // Every line was served, so the statement drew the order's id.
          if (orderId === null) throw new Error('stock taken without an order id');

          const order = await repo.createOrder(
            tx,
            {
              id: orderId,
              clientId,
              shipmentAddress: address,
              totalQuantity,
              totalPrice: fromCents(totalCents).toFixed(2),
              idempotencyKey: idempotencyKey ?? null,
              idempotencyRequestHash: requestHash,
            },
            lines,
          );
          return { order, sold: { copyIds: [...taken.keys()], soldOut: [...taken.values()].includes(0) } };
        }),
      );
      // Units sold and stock changed: Bestsellers, the Recommended pool and the shown stock follow.
      emit({ type: 'order.placed', orderId: placed.order.id, sold: placed.sold });
      return toClientOrder(placed.order);
    } catch (error) {
      // A concurrent retry with the same key committed first: answer with its order.
      if (idempotencyKey) {
        const earlier = await repo.findByIdempotencyKey(clientId, idempotencyKey);
        if (earlier) return replay(earlier);
      }
      throw error;
    }
  }

  return {
    checkout,

    /** Checkout's first read, for a route to start early: the order this client's key placed, if any. */
    placedWithKey: (clientId: number, idempotencyKey: string) => repo.findByIdempotencyKey(clientId, idempotencyKey),

    async clientPage(clientId: number, pageNumber: number, pageSize: number) {
      const { total, orders } = await repo.clientPage(clientId, (pageNumber - 1) * pageSize, pageSize);
      return { orders: orders.map(toClientOrder), totalPages: Math.ceil(total / pageSize) };
    },

    async backofficePage(pageNumber: number, pageSize: number) {
      const { total, orders } = await repo.backofficePage((pageNumber - 1) * pageSize, pageSize);
      return { orders: orders.map(toBackofficeOrder), totalPages: Math.ceil(total / pageSize) };
    },

    /**
     * A status change of the spec's buttons. `from`, the status the employee saw (beyond the spec's
     * client, which sends none): an order that has moved on since (another employee shipped it) is
     * refused, not set back with a status e-mail to its client.
     */
    async setStatus(orderId: number, requested: string, from?: string) {
      const status = BACKOFFICE_STATUSES.find((s) => s.toLowerCase() === requested.toLowerCase());
      if (!status) throw refuse.status(BACKOFFICE_STATUSES);
      const set = await repo.setStatus(orderId, status, from);
      if (!set) throw refuse.noOrder();
      if (set === true) return status;
      if ((STOCKLESS_STATUSES as readonly string[]).includes(set)) throw refuse.orderStatusKept(set);
      // Moved on to the very status asked for (the employee's own change, read before its page came back): done.
      if (set.toLowerCase() === status.toLowerCase()) return status;
      throw refuse.orderStatusChanged(set);
    },

    /**
     * Cancels an unshipped order and puts its stock back, in one transaction; the order's client
     * gets the status e-mail (a trigger writes it to the outbox). A client cancels only their own
     * order (another's is 404, as if it did not exist); staff cancel any, with a reason, and may say
     * the status they saw (`from`, as for a status change): an order moved on since is refused (409).
     */
    async cancel(orderId: number, by: { clientId: number } | { reason: string; from?: string }) {
      const reason = 'reason' in by ? by.reason.trim() : null;
      if (reason === '') throw refuse.cancelReasonRequired();
      const from = 'from' in by ? by.from : undefined;
      const order = await repo.cancel(orderId, 'clientId' in by ? by.clientId : null, reason, (current) => {
        // Shipped once, then set back to Processing: its books are gone all the same.
        if (!canStillBeCancelled(current)) throw refuse.orderNotCancellable(current);
        // Read under the order's lock: another employee's change just before this one is seen.
        if (from !== undefined && current.status.toLowerCase() !== from.toLowerCase()) throw refuse.orderStatusChanged(current.status);
      });
      if (!order) throw refuse.noOrder();
      // Its stock is back and its units no longer sold.
      emit({ type: 'order.cancelled', orderId: order.id });
      return toClientOrder(order);
    },
  };
}

export type OrderService = ReturnType<typeof orderService>;

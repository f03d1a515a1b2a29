import { SHIPPED_STATUSES, STOCKLESS_STATUSES } from '@bookshop/rules';
import type { Prisma } from '../../generated/prisma/client.ts';
import { retryLostRace } from '../../lib/database-errors.ts';
import { nameStockReason } from '../../lib/stock-reason.ts';
import type { Db, SqlReader, SqlWriter } from '../../plugins/prisma.ts';
import { auditedTransaction } from '../security/audit.ts';
import {
  BACKOFFICE_ORDERS_PAGE_SQL,
  type BackofficeOrderRow,
  type CheckoutLine,
  type ClientOrderRow,
  CREATE_ORDER_SQL,
  createOrderValues,
  LOCK_CART_LINES_SQL,
  type NewOrder,
  ORDER_BY_IDEMPOTENCY_KEY_SQL,
  TAKE_STOCK_SQL,
  takeStockValues,
} from './order-queries.ts';

export const clientOrderSelect = {
  id: true,
  createdAt: true,
  status: true,
  totalQuantity: true,
  totalPrice: true,
  shipmentAddress: true,
  shippedAt: true,
} satisfies Prisma.OrderSelect;

/** An order as the client's pages read it (Prisma). */
export type ClientOrderPage = Prisma.OrderGetPayload<{ select: typeof clientOrderSelect }>;

/** Checkout and the back-office's page of orders run as plain SQL on the primary (order-queries.ts); the rest through Prisma. */
export function orderRepository(db: Db, sql: SqlWriter) {
  return {
    transaction: <T>(work: (tx: SqlReader) => Promise<T>) => sql.transaction(work),

    findByIdempotencyKey: async (clientId: number, idempotencyKey: string) =>
      (
        await sql.query<ClientOrderRow & { idempotencyRequestHash: string | null }>(ORDER_BY_IDEMPOTENCY_KEY_SQL, [
          clientId,
          idempotencyKey,
        ])
      )[0],

    /**
     * Locks this client's chosen cart lines and their copies, in book-copy order, so two checkouts
     * crossing the same books always lock them in one order and never deadlock.
     */
    lockCartLines: (tx: SqlReader, clientId: number, cartItemIds: number[]) =>
      tx.query<CheckoutLine>(LOCK_CART_LINES_SQL, [clientId, cartItemIds]),

    /**
     * Takes every line's stock in one statement, each only if enough is left; returns the copies served,
     * each with the stock it has left, by copy id, and the id drawn for the order (null when none was served).
     */
    async takeStock(tx: SqlReader, lines: CheckoutLine[]): Promise<{ left: Map<number, number>; orderId: number | null }> {
      const taken = await tx.query<{ id: number; left: number; orderId: number }>(TAKE_STOCK_SQL, takeStockValues(lines));
      return { left: new Map(taken.map((t) => [t.id, t.left])), orderId: taken[0]?.orderId ?? null };
    },

    /** The order, its lines as sold and the emptied cart lines, in one statement. */
    createOrder: async (tx: SqlReader, order: NewOrder, lines: CheckoutLine[]) =>
      (await tx.query<ClientOrderRow>(CREATE_ORDER_SQL, createOrderValues(order, lines)))[0]!,

    async clientPage(clientId: number, skip: number, take: number) {
      const [total, orders] = await Promise.all([
        db.order.count({ where: { clientId } }),
        db.order.findMany({ where: { clientId }, select: clientOrderSelect, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip, take }),
      ]);
      return { total, orders };
    },

    async backofficePage(skip: number, take: number) {
      const rows = await sql.query<{ total: number } & (BackofficeOrderRow | { [K in keyof BackofficeOrderRow]: null })>(
        BACKOFFICE_ORDERS_PAGE_SQL,
        [skip, take],
      );
      const orders = rows.flatMap(({ total: _total, ...order }) => (order.id === null ? [] : [order as BackofficeOrderRow]));
      return { total: rows[0]?.total ?? 0, orders };
    },

    /**
     * A status change by the spec's buttons. An order that holds no stock (STOCKLESS_STATUSES: a
     * cancelled one gave it back, a failed one never took any) keeps its status: made Processing or
     * Shipped it would count as sold, and could be cancelled for stock it never took. An order that
     * is leaving or has left the shop (SHIPPED_STATUSES, before or after the change) keeps when it
     * first did, so that setting it back to Processing never makes it cancellable. With `from` (the
     * status the employee saw), only an order still in it changes. Answers true when set, the status
     * that kept it, or false for no such order.
     */
    async setStatus(id: number, status: string, from?: string): Promise<true | string | false> {
      // Raw, for the status it replaces; in an audited transaction, so the change is the employee's.
      // Two changes in opposite directions on orders of one day take that day's two counts
      // (sales_daily) in opposite orders: the one PostgreSQL picks as the deadlock's victim runs again.
      const count = await retryLostRace(() =>
        auditedTransaction(
          db,
          (tx) => tx.$executeRaw`
            UPDATE orders SET status = ${status},
              shipped_at = coalesce(shipped_at, CASE WHEN status = ANY(${SHIPPED_STATUSES}::text[])
                                                       OR ${status} = ANY(${SHIPPED_STATUSES}::text[]) THEN now() END)
            WHERE id = ${id} AND status <> ALL(${STOCKLESS_STATUSES}::text[]) AND (${from ?? null}::text IS NULL OR lower(status) = lower(${from ?? null}::text))`,
        ),
      );
      if (count === 1) return true;
      const order = await db.order.findUnique({ where: { id }, select: { status: true } });
      return order?.status ?? false;
    },

    /**
     * Cancelling, in one transaction (in a back-office request, audited as the employee's): the order
     * is locked (only its client's, when `clientId` is given), and `decide` sees its status; then the
     * stock of its lines goes back, copies locked in id order like checkout's, so the two never
     * deadlock, and the order becomes cancelled with the reason. Units sold fall with it, which the
     * ledger's trigger records as a cancellation, named for the order. Null: no such order. The day's
     * counts it lowers (sales_daily, its categories) are taken in another order than a checkout's or a
     * status change's of the same day: a deadlock's victim runs again, whole (nothing of it was kept).
     */
    cancel: (
      orderId: number,
      clientId: number | null,
      reason: string | null,
      decide: (order: { status: string; shippedAt: Date | null }) => void,
    ) =>
      retryLostRace(() =>
        auditedTransaction(db, async (tx) => {
          const [order] = await tx.$queryRaw<{ status: string; shippedAt: Date | null }[]>`
          SELECT status, shipped_at AS "shippedAt" FROM orders
          WHERE id = ${orderId} AND (${clientId}::int IS NULL OR client_id = ${clientId}::int) FOR UPDATE`;
          if (!order) return null;
          decide(order);
          await nameStockReason(tx, 'cancellation', `order:${orderId}`);
          await tx.$queryRaw`
          SELECT c.id FROM book_copies c WHERE c.id IN (SELECT book_copy_id FROM order_items WHERE order_id = ${orderId})
          ORDER BY c.id FOR UPDATE OF c`;
          await tx.$executeRaw`
          UPDATE book_copies c SET quantity = c.quantity + v.quantity, units_sold = greatest(c.units_sold - v.quantity, 0)
          FROM (SELECT book_copy_id, sum(quantity)::int AS quantity FROM order_items WHERE order_id = ${orderId} GROUP BY book_copy_id) v
          WHERE c.id = v.book_copy_id`;
          return tx.order.update({
            where: { id: orderId },
            data: { status: 'cancelled', cancelReason: reason },
            select: clientOrderSelect,
          });
        }),
      ),
  };
}

export type OrderRepository = ReturnType<typeof orderRepository>;

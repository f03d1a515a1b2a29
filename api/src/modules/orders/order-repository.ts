import type { Prisma } from '../../generated/prisma/client.ts';
import type { Db, SqlReader, SqlWriter } from '../../plugins/prisma.ts';
import {
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
} satisfies Prisma.OrderSelect;

export const backofficeOrderSelect = {
  ...clientOrderSelect,
  clientId: true,
  items: { select: { id: true, name: true, imageUrl: true, quantity: true, unitPrice: true }, orderBy: { id: 'asc' } },
} satisfies Prisma.OrderSelect;

/** Checkout runs as plain SQL on the primary (order-queries.ts); the pages and statuses through Prisma. */
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

    /** Takes every line's stock in one statement, each only if enough is left; returns the copies served. */
    async takeStock(tx: SqlReader, lines: CheckoutLine[]): Promise<Set<number>> {
      const taken = await tx.query<{ id: number }>(TAKE_STOCK_SQL, takeStockValues(lines));
      return new Set(taken.map((t) => t.id));
    },

    /** The order, its lines as sold and the emptied cart lines, in one statement. */
    createOrder: async (tx: SqlReader, order: NewOrder, lines: CheckoutLine[]) =>
      (await tx.query<ClientOrderRow>(CREATE_ORDER_SQL, createOrderValues(order, lines)))[0]!,

    async clientPage(clientId: number, skip: number, take: number) {
      const [total, orders] = await db.$transaction([
        db.order.count({ where: { clientId } }),
        db.order.findMany({ where: { clientId }, select: clientOrderSelect, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip, take }),
      ]);
      return { total, orders };
    },

    async backofficePage(skip: number, take: number) {
      const [total, orders] = await db.$transaction([
        db.order.count(),
        db.order.findMany({ select: backofficeOrderSelect, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip, take }),
      ]);
      return { total, orders };
    },

    setStatus: async (id: number, status: string) => (await db.order.updateMany({ where: { id }, data: { status } })).count === 1,
  };
}

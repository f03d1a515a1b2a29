import type { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../plugins/prisma.ts';

export type Tx = Prisma.TransactionClient;

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

export interface CheckoutLine {
  cart_item_id: number;
  book_copy_id: number;
  quantity: number;
  price: string;
  name: string;
  image_url: string | null;
  is_available: boolean;
}

export function orderRepository(db: Db) {
  return {
    transaction: <T>(work: (tx: Tx) => Promise<T>) => db.$transaction(work, { maxWait: 20_000, timeout: 20_000 }),

    findByIdempotencyKey: (clientId: number, idempotencyKey: string) =>
      db.order.findUnique({
        where: { clientId_idempotencyKey: { clientId, idempotencyKey } },
        select: { ...clientOrderSelect, idempotencyRequestHash: true },
      }),

    /**
     * Locks this client's chosen cart lines and their copies, in book-copy order, so two checkouts
     * crossing the same books always lock them in one order and never deadlock.
     */
    lockCartLines: (tx: Tx, clientId: number, cartItemIds: number[]) =>
      tx.$queryRaw<CheckoutLine[]>`
        SELECT ci.id AS cart_item_id, ci.book_copy_id, ci.quantity, c.price::text AS price, b.name, b.image_url, c.is_available
        FROM cart_items ci
        JOIN book_copies c ON c.id = ci.book_copy_id
        JOIN books b ON b.id = c.book_id
        WHERE ci.client_id = ${clientId} AND ci.id = ANY(${cartItemIds}::int[])
        ORDER BY ci.book_copy_id, ci.id
        FOR UPDATE OF ci, c`,

    /** Takes every line's stock in one statement, each only if enough is left; returns the copies served. */
    async takeStock(tx: Tx, lines: { book_copy_id: number; quantity: number }[]): Promise<Set<number>> {
      const taken = await tx.$queryRaw<{ id: number }[]>`
        UPDATE book_copies c SET quantity = c.quantity - v.quantity, units_sold = c.units_sold + v.quantity
        FROM unnest(${lines.map((l) => l.book_copy_id)}::int[], ${lines.map((l) => l.quantity)}::int[]) AS v(id, quantity)
        WHERE c.id = v.id AND c.is_available AND c.quantity >= v.quantity
        RETURNING c.id`;
      return new Set(taken.map((t) => t.id));
    },

    /** The order, its lines as sold and the emptied cart lines, in one statement. */
    async createOrder(
      tx: Tx,
      order: {
        clientId: number;
        shipmentAddress: string;
        totalQuantity: number;
        totalPrice: string;
        idempotencyKey: string | null;
        idempotencyRequestHash: string | null;
      },
      lines: CheckoutLine[],
    ) {
      const [created] = await tx.$queryRaw<
        { id: number; createdAt: Date; status: string; totalQuantity: number; totalPrice: string; shipmentAddress: string }[]
      >`
        WITH new_order AS (
          INSERT INTO orders (client_id, status, shipment_address, total_quantity, total_price, idempotency_key, idempotency_request_hash)
          VALUES (${order.clientId}, 'pending', ${order.shipmentAddress}, ${order.totalQuantity}, ${order.totalPrice}::numeric,
                  ${order.idempotencyKey}, ${order.idempotencyRequestHash})
          RETURNING id, created_at, status, total_quantity, total_price, shipment_address
        ), items AS (
          INSERT INTO order_items (order_id, book_copy_id, name, image_url, unit_price, quantity)
          SELECT new_order.id, v.copy_id, v.name, v.image_url, v.price::numeric, v.quantity
          FROM new_order, unnest(${lines.map((l) => l.book_copy_id)}::int[], ${lines.map((l) => l.name)}::text[],
                                 ${lines.map((l) => l.image_url)}::text[], ${lines.map((l) => l.price)}::text[],
                                 ${lines.map((l) => l.quantity)}::int[]) WITH ORDINALITY AS v(copy_id, name, image_url, price, quantity, n)
          ORDER BY v.n
        ), emptied AS (
          DELETE FROM cart_items WHERE client_id = ${order.clientId} AND id = ANY(${lines.map((l) => l.cart_item_id)}::int[])
        )
        SELECT id, created_at AS "createdAt", status, total_quantity AS "totalQuantity", total_price::text AS "totalPrice",
               shipment_address AS "shipmentAddress"
        FROM new_order`;
      return created!;
    },

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

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
}

export function orderRepository(db: Db) {
  return {
    transaction: <T>(work: (tx: Tx) => Promise<T>) => db.$transaction(work, { maxWait: 20_000, timeout: 20_000 }),

    findByIdempotencyKey: (clientId: number, idempotencyKey: string) =>
      db.order.findUnique({
        where: { clientId_idempotencyKey: { clientId, idempotencyKey } },
        select: { ...clientOrderSelect, idempotencyRequestHash: true },
      }),

    /** Locks this client's chosen cart lines (in id order, so two checkouts never deadlock on them). */
    lockCartLines: (tx: Tx, clientId: number, cartItemIds: number[]) =>
      tx.$queryRaw<CheckoutLine[]>`
        SELECT ci.id AS cart_item_id, ci.book_copy_id, ci.quantity, c.price::text AS price, b.name, b.image_url
        FROM cart_items ci
        JOIN book_copies c ON c.id = ci.book_copy_id AND c.is_available
        JOIN books b ON b.id = c.book_id
        WHERE ci.client_id = ${clientId} AND ci.id = ANY(${cartItemIds}::int[])
        ORDER BY ci.id
        FOR UPDATE OF ci`,

    /** Takes stock only if enough is left; false when another checkout got there first. */
    async takeStock(tx: Tx, bookCopyId: number, quantity: number): Promise<boolean> {
      const taken = await tx.$executeRaw`
        UPDATE book_copies SET quantity = quantity - ${quantity}, units_sold = units_sold + ${quantity}
        WHERE id = ${bookCopyId} AND is_available AND quantity >= ${quantity}`;
      return taken === 1;
    },

    createOrder: (tx: Tx, data: Prisma.OrderUncheckedCreateInput) => tx.order.create({ data, select: clientOrderSelect }),

    removeCartLines: (tx: Tx, clientId: number, ids: number[]) => tx.cartItem.deleteMany({ where: { clientId, id: { in: ids } } }),

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

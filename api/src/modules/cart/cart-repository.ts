import type { Db } from '../../plugins/prisma.ts';
import { copyLineSelect } from '../catalog/copy-line.ts';

export function cartRepository(db: Db) {
  return {
    list: (clientId: number) =>
      db.cartItem.findMany({
        where: { clientId },
        select: {
          id: true,
          quantity: true,
          createdAt: true,
          bookCopy: { select: copyLineSelect },
        },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      }),

    /**
     * Adds one unit in a single statement: a new line at 1, or +1 while the line stays within stock.
     * No row back means the copy is unknown/unavailable or the cart already holds all the stock.
     */
    async addOne(clientId: number, bookCopyId: number): Promise<number | null> {
      const rows = await db.$queryRaw<{ id: number }[]>`
        INSERT INTO cart_items (client_id, book_copy_id, quantity)
        SELECT ${clientId}, c.id, 1 FROM book_copies c WHERE c.id = ${bookCopyId} AND c.is_available AND c.quantity >= 1
        ON CONFLICT (client_id, book_copy_id) DO UPDATE SET quantity = cart_items.quantity + 1
          WHERE cart_items.quantity < (SELECT quantity FROM book_copies WHERE id = ${bookCopyId})
        RETURNING id`;
      return rows[0]?.id ?? null;
    },

    findCopy: (id: number) => db.bookCopy.findUnique({ where: { id }, select: { isAvailable: true, quantity: true } }),

    findLine: (clientId: number, id: number) =>
      db.cartItem.findFirst({
        where: { id, clientId },
        select: { id: true, quantity: true, bookCopy: { select: { quantity: true, price: true } } },
      }),

    setQuantity: (id: number, quantity: number) => db.cartItem.update({ where: { id }, data: { quantity }, select: { id: true } }),

    remove: async (clientId: number, id: number) => (await db.cartItem.deleteMany({ where: { id, clientId } })).count === 1,
  };
}

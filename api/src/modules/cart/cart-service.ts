import { coverUrl } from '../../lib/cover.ts';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors.ts';
import { ORDER_TOO_LARGE_MESSAGE, toCents, toMoney, tooLargeForAnOrder } from '../../lib/money.ts';
import type { Db } from '../../plugins/prisma.ts';
import { cartRepository } from './cart-repository.ts';

export const OUT_OF_STOCK = 'product is out of stock.';

export function cartService(db: Db) {
  const repo = cartRepository(db);
  return {
    async list(clientId: number) {
      const lines = await repo.list(clientId);
      return lines.map((line) => ({
        id: line.id,
        productId: line.bookCopy.id,
        name: line.bookCopy.book.name,
        imageUrl: coverUrl(line.bookCopy.book.imageUrl, line.bookCopy.book.name, line.bookCopy.book.author.fullName),
        totalPrice: toMoney(line.bookCopy.price),
        bookCopyQuantity: line.bookCopy.quantity,
        totalQuantity: line.quantity,
        isAvailable: line.bookCopy.isAvailable,
        createdAt: line.createdAt,
      }));
    },

    async add(clientId: number, bookCopyId: number) {
      const id = await repo.addOne(clientId, bookCopyId);
      if (id !== null) return id;
      const copy = await repo.findCopy(bookCopyId);
      if (!copy?.isAvailable) throw notFound('This book is not available.');
      throw new AppError(409, 'OUT_OF_STOCK', OUT_OF_STOCK);
    },

    async update(clientId: number, cartItemId: number, quantity: number) {
      if (!Number.isInteger(quantity) || quantity < 1) throw badRequest('Quantity must be at least 1.');
      const line = await repo.findLine(clientId, cartItemId);
      if (!line) throw notFound('This item is not in your cart.');
      // Only an increase is held to the stock: a shopper whose line is above what is left must be able to come down.
      if (quantity > line.quantity && quantity > line.bookCopy.quantity) throw conflict(`Only ${line.bookCopy.quantity} left in stock.`);
      if (tooLargeForAnOrder(toCents(line.bookCopy.price) * quantity)) throw new AppError(409, 'ORDER_TOO_LARGE', ORDER_TOO_LARGE_MESSAGE);
      await repo.setQuantity(cartItemId, quantity);
    },

    async remove(clientId: number, cartItemId: number) {
      if (!(await repo.remove(clientId, cartItemId))) throw notFound('This item is not in your cart.');
    },
  };
}

export type CartService = ReturnType<typeof cartService>;

import { ORDER_LINES_MAX } from '@bookshop/rules';
import { toCents, toMoney, tooLargeForAnOrder } from '../../lib/money.ts';
import { refuse } from '../../lib/refusals.ts';
import { copyLineCover } from '../catalog/copy-line.ts';
import type { cartRepository } from './cart-repository.ts';

export function cartService(repo: ReturnType<typeof cartRepository>) {
  return {
    async list(clientId: number) {
      const lines = await repo.list(clientId);
      return lines.map((line) => ({
        id: line.id,
        productId: line.bookCopy.id,
        name: line.bookCopy.book.name,
        imageUrl: copyLineCover(line.bookCopy),
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
      if (!copy?.isAvailable) throw refuse.bookUnavailable();
      if (copy.quantity >= 1 && (await repo.isFullFor(clientId, bookCopyId))) throw refuse.cartFull(ORDER_LINES_MAX);
      throw refuse.outOfStock();
    },

    async update(clientId: number, cartItemId: number, quantity: number) {
      const line = await repo.findLine(clientId, cartItemId);
      if (!line) throw refuse.notInCart();
      // Only an increase is held to the stock: a shopper whose line is above what is left must be able to come down.
      if (quantity > line.quantity && quantity > line.copyQuantity) throw refuse.onlyLeft(line.copyQuantity);
      if (tooLargeForAnOrder(toCents(line.price) * quantity)) throw refuse.orderTooLarge();
      if (!(await repo.setQuantity(clientId, cartItemId, quantity))) throw refuse.notInCart();
    },

    async remove(clientId: number, cartItemId: number) {
      if (!(await repo.remove(clientId, cartItemId))) throw refuse.notInCart();
    },
  };
}

export type CartService = ReturnType<typeof cartService>;

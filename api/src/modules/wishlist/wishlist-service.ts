// Wishlists and back-in-stock notices (beyond the spec). A client keeps up to WISHLIST_MAX copies;
// when one comes back (stock again, or on sale again), the trigger book_copies_back_in_stock writes
// a notice and its outbox row in the restock's own transaction. Here the client reads and clears them.
import { toMoney } from '../../lib/money.ts';
import { refuse } from '../../lib/refusals.ts';
import { copyLineCover } from '../catalog/copy-line.ts';
import type { WishlistRepository } from './wishlist-repository.ts';

/** A wishlist's most copies: every card's heart reads the whole list, so it stays small. */
export const WISHLIST_MAX = 200;
/** The bell lists the newest notices only. */
export const NOTICES_SHOWN = 20;

export function wishlistService(repo: WishlistRepository) {
  return {
    /** The client's wished-for copies, newest first. */
    async list(clientId: number) {
      const rows = await repo.list(clientId, WISHLIST_MAX);
      return rows.map(({ bookCopy: c }) => ({
        id: c.id,
        name: c.book.name,
        imageUrl: copyLineCover(c),
        authorName: c.book.author.fullName,
        authorId: c.book.authorId,
        price: toMoney(c.price),
        quantity: c.quantity,
        available: c.isAvailable,
      }));
    },

    /**
     * Adds a copy (again is no change); refused past WISHLIST_MAX, for a copy that does not exist or is
     * not on sale (the storefront shows it to no one: the wishlist's answer would), or when another add
     * of the client's held it up for too long (409, try again). One wished for while on sale and taken
     * off since stays, and its return to sale is a notice.
     */
    async add(clientId: number, bookCopyId: number) {
      if (!(await repo.copyOnSale(bookCopyId))) throw refuse.bookUnavailable();
      if (await repo.isWished(clientId, bookCopyId)) return;
      const outcome = await repo.addWithin(clientId, bookCopyId, WISHLIST_MAX);
      if (outcome === 'full') throw refuse.wishlistFull(WISHLIST_MAX);
      if (outcome === 'busy') throw refuse.wishlistBusy();
    },

    async remove(clientId: number, bookCopyId: number) {
      await repo.remove(clientId, bookCopyId);
    },

    /** The bell: how many notices are unread, and the newest ones, unread first. */
    async notices(clientId: number) {
      const [unread, rows] = await repo.notices(clientId, NOTICES_SHOWN);
      return {
        unread,
        notices: rows.map((n) => ({
          id: n.id,
          kind: 'back_in_stock' as const,
          bookCopyId: n.bookCopyId,
          bookName: n.bookCopy.book.name,
          message: `${n.bookCopy.book.name} is back in stock.`,
          createdAt: n.createdAt.toISOString(),
          read: n.readAt !== null,
        })),
      };
    },

    /** Marks the client's notices read (the bell was opened and closed): all, or those it showed, from `from` up to `upTo`. */
    async markRead(clientId: number, upTo?: number, from?: number) {
      await repo.markRead(clientId, upTo, from);
    },
  };
}

export type WishlistService = ReturnType<typeof wishlistService>;

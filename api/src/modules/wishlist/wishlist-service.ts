// Wishlists and back-in-stock notices (beyond the spec). A client keeps up to WISHLIST_MAX copies;
// when one comes back (stock again, or on sale again), the trigger book_copies_back_in_stock writes
// a notice and its outbox row in the restock's own transaction. Here the client reads and clears them.
import { toMoney } from '../../lib/money.ts';
import { refuse } from '../../lib/refusals.ts';
import type { Db } from '../../plugins/prisma.ts';
import { copyLineCover, copyLineSelect } from '../catalog/copy-line.ts';

/** A wishlist's most copies: every card's heart reads the whole list, so it stays small. */
export const WISHLIST_MAX = 200;
/** The bell lists the newest notices only. */
export const NOTICES_SHOWN = 20;

export function wishlistService(db: Db) {
  return {
    /** The client's wished-for copies, newest first. */
    async list(clientId: number) {
      const rows = await db.wishlistItem.findMany({
        where: { clientId },
        orderBy: [{ createdAt: 'desc' }, { bookCopyId: 'desc' }],
        take: WISHLIST_MAX,
        select: { bookCopy: { select: copyLineSelect } },
      });
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

    /** Adds a copy (again is no change); refused past WISHLIST_MAX or for a copy that does not exist. */
    async add(clientId: number, bookCopyId: number) {
      if (!(await db.bookCopy.findUnique({ where: { id: bookCopyId }, select: { id: true } }))) throw refuse.bookUnavailable();
      if (await db.wishlistItem.findUnique({ where: { clientId_bookCopyId: { clientId, bookCopyId } }, select: { bookCopyId: true } }))
        return;
      // A soft cap: two adds at the very same moment may pass it by one, which harms nothing.
      if ((await db.wishlistItem.count({ where: { clientId } })) >= WISHLIST_MAX) throw refuse.wishlistFull(WISHLIST_MAX);
      await db.wishlistItem.upsert({
        where: { clientId_bookCopyId: { clientId, bookCopyId } },
        create: { clientId, bookCopyId },
        update: {},
        select: { bookCopyId: true },
      });
    },

    async remove(clientId: number, bookCopyId: number) {
      await db.wishlistItem.deleteMany({ where: { clientId, bookCopyId } });
    },

    /** The bell: how many notices are unread, and the newest ones. */
    async notices(clientId: number) {
      const [unread, rows] = await Promise.all([
        db.notice.count({ where: { clientId, readAt: null } }),
        db.notice.findMany({
          where: { clientId },
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
          take: NOTICES_SHOWN,
          select: { id: true, bookCopyId: true, createdAt: true, readAt: true, bookCopy: { select: { book: { select: { name: true } } } } },
        }),
      ]);
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

    /** Marks every notice of the client read (the bell was opened). */
    async markAllRead(clientId: number) {
      await db.notice.updateMany({ where: { clientId, readAt: null }, data: { readAt: new Date() } });
    },
  };
}

export type WishlistService = ReturnType<typeof wishlistService>;

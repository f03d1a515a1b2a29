// The wishlist's and the notices' reads and writes (decision 14: every Prisma and SQL call of a module
// lives in its repository; wishlist-service.ts decides, this file asks the database).
import type { Db } from '../../plugins/prisma.ts';
import { copyLineSelect } from '../catalog/copy-line.ts';

const item = (clientId: number, bookCopyId: number) => ({ clientId_bookCopyId: { clientId, bookCopyId } });
/** With the client's id, the transaction-level advisory lock that lets one of their adds run at a time. */
const WISHLIST_ADD_LOCK = 16_018;

export function wishlistRepository(db: Db) {
  return {
    /** The client's wished-for copies, newest first, at most `take`. */
    list: (clientId: number, take: number) =>
      db.wishlistItem.findMany({
        where: { clientId },
        orderBy: [{ createdAt: 'desc' }, { bookCopyId: 'desc' }],
        take,
        select: { bookCopy: { select: copyLineSelect } },
      }),

    copyExists: async (bookCopyId: number) => !!(await db.bookCopy.findUnique({ where: { id: bookCopyId }, select: { id: true } })),
    isWished: async (clientId: number, bookCopyId: number) =>
      !!(await db.wishlistItem.findUnique({ where: item(clientId, bookCopyId), select: { bookCopyId: true } })),

    /**
     * Adds the copy unless the client already wishes for `max` (false then). One add of a client's at a
     * time, so the count each reads includes the others' rows: a burst of adds cannot pass the cap.
     */
    addWithin: (clientId: number, bookCopyId: number, max: number) =>
      db.$transaction(async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(${WISHLIST_ADD_LOCK}::int, ${clientId}::int)`;
        if ((await tx.wishlistItem.count({ where: { clientId } })) >= max) return false;
        await tx.$executeRaw`INSERT INTO wishlist_items (client_id, book_copy_id) VALUES (${clientId}, ${bookCopyId}) ON CONFLICT DO NOTHING`;
        return true;
      }),
    remove: async (clientId: number, bookCopyId: number) => {
      await db.wishlistItem.deleteMany({ where: { clientId, bookCopyId } });
    },

    /** How many of the client's notices are unread, and the newest `take`. */
    notices: (clientId: number, take: number) =>
      Promise.all([
        db.notice.count({ where: { clientId, readAt: null } }),
        db.notice.findMany({
          where: { clientId },
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
          take,
          select: { id: true, bookCopyId: true, createdAt: true, readAt: true, bookCopy: { select: { book: { select: { name: true } } } } },
        }),
      ]),
    markAllRead: async (clientId: number) => {
      await db.notice.updateMany({ where: { clientId, readAt: null }, data: { readAt: new Date() } });
    },
  };
}

export type WishlistRepository = ReturnType<typeof wishlistRepository>;

// The wishlist's and the notices' reads and writes (decision 14: every Prisma and SQL call of a module
// lives in its repository; wishlist-service.ts decides, this file asks the database).
import type { Db } from '../../plugins/prisma.ts';
import { copyLineSelect } from '../catalog/copy-line.ts';

const item = (clientId: number, bookCopyId: number) => ({ clientId_bookCopyId: { clientId, bookCopyId } });

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
    count: (clientId: number) => db.wishlistItem.count({ where: { clientId } }),

    add: async (clientId: number, bookCopyId: number) => {
      await db.wishlistItem.upsert({
        where: item(clientId, bookCopyId),
        create: { clientId, bookCopyId },
        update: {},
        select: { bookCopyId: true },
      });
    },
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

// The wishlist's and the notices' reads and writes (decision 14: every Prisma and SQL call of a module
// lives in its repository; wishlist-service.ts decides, this file asks the database).
import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '../../plugins/prisma.ts';
import { copyLineSelect } from '../catalog/copy-line.ts';

const item = (clientId: number, bookCopyId: number) => ({ clientId_bookCopyId: { clientId, bookCopyId } });
/** With the client's id, the transaction-level advisory lock that lets one of their adds run at a time. */
const WISHLIST_ADD_LOCK = 16_018;
/** An add takes a few milliseconds: a client's add waits for the others' for up to half a second. */
const ADD_WAIT_MS = 500;
const ADD_RETRY_MS = 8;

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

    copyOnSale: async (bookCopyId: number) =>
      (await db.bookCopy.findUnique({ where: { id: bookCopyId }, select: { isAvailable: true } }))?.isAvailable === true,
    isWished: async (clientId: number, bookCopyId: number) =>
      !!(await db.wishlistItem.findUnique({ where: item(clientId, bookCopyId), select: { bookCopyId: true } })),

    /**
     * Adds the copy unless the client already wishes for `max`. One add of a client's at a time, so the
     * count each reads includes the others' rows: a burst of adds cannot pass the cap. An add that finds
     * another running steps back and tries again a moment later, holding no connection while it waits
     * (a burst must not fill the pool with waiters); 'busy' once it has waited long enough.
     */
    async addWithin(clientId: number, bookCopyId: number, max: number): Promise<'added' | 'full' | 'busy'> {
      // Bounded by time, not attempts: with the pool busy, each attempt may wait for a connection.
      for (const giveUpAt = Date.now() + ADD_WAIT_MS; Date.now() < giveUpAt; ) {
        const outcome = await db.$transaction(async (tx) => {
          const [{ locked }] = await tx.$queryRaw<[{ locked: boolean }]>`
            SELECT pg_try_advisory_xact_lock(${WISHLIST_ADD_LOCK}::int, ${clientId}::int) AS locked`;
          if (!locked) return 'busy' as const;
          if ((await tx.wishlistItem.count({ where: { clientId } })) >= max) return 'full' as const;
          await tx.$executeRaw`INSERT INTO wishlist_items (client_id, book_copy_id) VALUES (${clientId}, ${bookCopyId}) ON CONFLICT DO NOTHING`;
          return 'added' as const;
        });
        if (outcome !== 'busy') return outcome;
        await sleep(ADD_RETRY_MS * (1 + Math.random()));
      }
      return 'busy';
    },
    remove: async (clientId: number, bookCopyId: number) => {
      await db.wishlistItem.deleteMany({ where: { clientId, bookCopyId } });
    },

    /**
     * How many of the client's notices are unread, and `take` of them: the newest unread ones first,
     * then the newest read ones, so that however many came, the unread are the ones shown (and read).
     */
    async notices(clientId: number, take: number) {
      const newest = (read: boolean, count: number) =>
        db.notice.findMany({
          where: { clientId, readAt: read ? { not: null } : null },
          // By id, as they are marked read (by a range of ids): a notice's created_at is its restock's
          // start, and restocks at once can write them in another order.
          orderBy: { id: 'desc' },
          take: count,
          select: { id: true, bookCopyId: true, createdAt: true, readAt: true, bookCopy: { select: { book: { select: { name: true } } } } },
        });
      const [unread, unreadShown] = await Promise.all([db.notice.count({ where: { clientId, readAt: null } }), newest(false, take)]);
      const readShown = unreadShown.length < take ? await newest(true, take - unreadShown.length) : [];
      return [unread, [...unreadShown, ...readShown]] as const;
    },
    /**
     * The client's unread notices, or those from `from` up to `upTo`, marked read. Ids are given as
     * notices are written, not as they commit: one written by a slow restock that commits after a newer
     * one was shown can be marked with it, unseen (rare: a restock's transaction is short).
     */
    markRead: async (clientId: number, upTo?: number, from?: number) => {
      await db.notice.updateMany({
        where: { clientId, readAt: null, id: { ...(upTo !== undefined && { lte: upTo }), ...(from !== undefined && { gte: from }) } },
        data: { readAt: new Date() },
      });
    },
  };
}

export type WishlistRepository = ReturnType<typeof wishlistRepository>;

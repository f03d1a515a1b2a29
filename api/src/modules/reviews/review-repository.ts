// The reviews' reads and writes (decision 14: every Prisma and SQL call of a module lives in its
// repository; review-service.ts decides, this file asks the database).
import { SHIPPED_STATUSES } from '@bookshop/rules';
import type { Db } from '../../plugins/prisma.ts';

const reviewerSelect = { select: { firstName: true, lastName: true } } as const;
const newestFirst = [{ updatedAt: 'desc' as const }, { id: 'desc' as const }];
const mineWhere = (bookId: number, clientId: number) => ({ bookId_clientId: { bookId, clientId } });

export function reviewRepository(db: Db) {
  return {
    /** The book a copy belongs to, on sale or not (or only while on sale); null for no such copy. */
    bookOf: async (copyId: number, { onSale = false } = {}) =>
      (await db.bookCopy.findFirst({ where: { id: copyId, ...(onSale && { isAvailable: true }) }, select: { bookId: true } }))?.bookId ??
      null,

    /**
     * Whether the client has a shipped, delivered or successful order of the book, or one that left the
     * shop and staff set back since (its shipped_at stays, as for cancelling): their review stays theirs.
     */
    async hasReceived(clientId: number, bookId: number) {
      const [row] = await db.$queryRaw<{ received: boolean }[]>`
        SELECT EXISTS (
          SELECT 1 FROM orders o JOIN order_items oi ON oi.order_id = o.id JOIN book_copies c ON c.id = oi.book_copy_id
          WHERE o.client_id = ${clientId} AND c.book_id = ${bookId}
            AND (o.status = ANY(${SHIPPED_STATUSES}::text[]) OR o.shipped_at IS NOT NULL)
        ) AS received`;
      return row?.received === true;
    },

    /** A book's visible reviews, newest first, a page at a time, and how many there are. */
    visibleForBook: (bookId: number, skip: number, take: number) => {
      const where = { bookId, hiddenAt: null };
      return Promise.all([
        db.bookReview.count({ where }),
        db.bookReview.findMany({
          where,
          orderBy: newestFirst,
          skip,
          take,
          select: { id: true, stars: true, review: true, updatedAt: true, client: reviewerSelect },
        }),
      ]);
    },

    /** The client's own review of the book, or null. */
    mine: (bookId: number, clientId: number) =>
      db.bookReview.findUnique({ where: mineWhere(bookId, clientId), select: { stars: true, review: true, hiddenAt: true } }),

    /** The client's name, as their reviews name them. */
    reviewerOf: (clientId: number) => db.client.findUniqueOrThrow({ where: { id: clientId }, ...reviewerSelect }),

    /**
     * Writes the client's review of the book, new or changed: the stars sent, whatever another save
     * wrote since they were read. Their trigger moves the book's ratings (which tells every instance's
     * catalog cache) only when they changed (the migration review_ratings_on_real_change); the answer
     * says whether they did, from the row as this save found it, locked (another tab's save may have
     * changed it since the service read it).
     */
    save: (bookId: number, clientId: number, stars: number, review: string) =>
      db.$transaction(async (tx) => {
        const [before] = await tx.$queryRaw<{ stars: number; hidden: boolean }[]>`
          SELECT stars, hidden_at IS NOT NULL AS hidden FROM book_reviews WHERE book_id = ${bookId} AND client_id = ${clientId} FOR UPDATE`;
        const saved = await tx.bookReview.upsert({
          where: mineWhere(bookId, clientId),
          create: { bookId, clientId, stars, review },
          update: { stars, review, updatedAt: new Date() },
          select: { stars: true, review: true, hiddenAt: true },
        });
        const ratingsMoved = before ? !before.hidden && before.stars !== saved.stars : saved.hiddenAt === null;
        return { ...saved, ratingsMoved };
      }),

    /** Every review, hidden ones too, newest first, a page at a time, and how many there are. */
    all: (skip: number, take: number) =>
      Promise.all([
        db.bookReview.count(),
        db.bookReview.findMany({
          orderBy: newestFirst,
          skip,
          take,
          select: {
            id: true,
            bookId: true,
            clientId: true,
            stars: true,
            review: true,
            updatedAt: true,
            hiddenAt: true,
            book: { select: { name: true } },
            client: reviewerSelect,
          },
        }),
      ]),

    hiddenAt: async (id: number) => db.bookReview.findUnique({ where: { id }, select: { hiddenAt: true, bookId: true, updatedAt: true } }),

    /** Hides or shows the review; showing only while its words are those of `updatedAt` (false when they changed since). */
    setHidden: async (id: number, hidden: boolean, updatedAt?: Date) =>
      (
        await db.bookReview.updateMany({
          where: { id, ...(updatedAt && { updatedAt }) },
          data: { hiddenAt: hidden ? new Date() : null },
        })
      ).count === 1,
  };
}

export type ReviewRepository = ReturnType<typeof reviewRepository>;

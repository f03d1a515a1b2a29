// Every read of the storefront catalog. Only available copies are ever listed.
import type { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../plugins/prisma.ts';

export const cardSelect = {
  id: true,
  price: true,
  quantity: true,
  book: { select: { name: true, imageUrl: true, author: { select: { fullName: true } } } },
} satisfies Prisma.BookCopySelect;

export const detailSelect = {
  id: true,
  price: true,
  quantity: true,
  book: {
    select: {
      name: true,
      imageUrl: true,
      description: true,
      ratingsCount: true,
      ratingsSum: true,
      author: { select: { fullName: true } },
      type: { select: { name: true } },
    },
  },
} satisfies Prisma.BookCopySelect;

export type CardRow = Prisma.BookCopyGetPayload<{ select: typeof cardSelect }>;
export type DetailRow = Prisma.BookCopyGetPayload<{ select: typeof detailSelect }>;

const available = { isAvailable: true } satisfies Prisma.BookCopyWhereInput;

/** Books with fewer ratings than this are not ranked by their average (a 5.0 from three readers means little). */
export const TOP_RATED_MIN_RATINGS = 10_000;

export function catalogRepository(db: Db) {
  const detailsInOrder = async (ids: number[]): Promise<DetailRow[]> => {
    if (!ids.length) return [];
    const rows = await db.bookCopy.findMany({ where: { id: { in: ids } }, select: detailSelect });
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  };

  return {
    listTypes: () => db.bookType.findMany({ select: { id: true, name: true }, orderBy: { id: 'asc' } }),

    findType: (name: string) =>
      db.bookType.findFirst({ where: { name: { equals: name, mode: 'insensitive' } }, select: { id: true, name: true } }),

    async pageByType(typeId: number, skip: number, take: number) {
      const where = { ...available, book: { typeId } } satisfies Prisma.BookCopyWhereInput;
      const [total, rows] = await db.$transaction([
        db.bookCopy.count({ where }),
        db.bookCopy.findMany({
          where,
          select: cardSelect,
          orderBy: [{ book: { ratingsCount: 'desc' } }, { id: 'asc' }],
          skip,
          take,
        }),
      ]);
      return { total, rows };
    },

    findDetail: (id: number) => db.bookCopy.findFirst({ where: { id, ...available }, select: detailSelect }),

    newReleases: (take: number) =>
      db.bookCopy.findMany({
        where: { ...available, book: { publishedAt: { not: null } } },
        select: cardSelect,
        orderBy: [{ book: { publishedAt: 'desc' } }, { id: 'desc' }],
        take,
      }),

    bestSellers: (take: number) =>
      db.bookCopy.findMany({
        where: { ...available, unitsSold: { gt: 0 } },
        select: cardSelect,
        orderBy: [{ unitsSold: 'desc' }, { id: 'asc' }],
        take,
      }),

    async topRated(take: number) {
      const ids = await db.$queryRaw<{ id: number }[]>`
        SELECT c.id FROM books b
        JOIN book_copies c ON c.book_id = b.id AND c.is_available
        WHERE b.ratings_count >= ${TOP_RATED_MIN_RATINGS}
        ORDER BY b.ratings_sum::numeric / b.ratings_count DESC, b.ratings_count DESC, c.id
        LIMIT ${take}`;
      return detailsInOrder(ids.map((r) => r.id));
    },

    /**
     * A varied pick: in each category, well-rated books (average >= 4, 5,000+ ratings) in an order
     * that changes daily; `perCategory` decides how many each category gives, so a client's
     * favourite categories can give more.
     */
    async recommended(perCategory: Map<number, number>, fallbackPerCategory: number, day: string, take: number) {
      const typeIds = [...perCategory.keys()];
      const counts = [...perCategory.values()];
      const ids = await db.$queryRaw<{ id: number }[]>`
        WITH quota AS (SELECT unnest(${typeIds}::int[]) AS type_id, unnest(${counts}::int[]) AS n),
        ranked AS (
          SELECT c.id, b.type_id, b.ratings_count,
                 row_number() OVER (PARTITION BY b.type_id ORDER BY md5(${day} || c.id::text)) AS rank
          FROM books b JOIN book_copies c ON c.book_id = b.id AND c.is_available AND c.quantity > 0
          WHERE b.ratings_count >= 5000 AND b.ratings_sum >= 4 * b.ratings_count
        )
        SELECT r.id FROM ranked r LEFT JOIN quota q ON q.type_id = r.type_id
        WHERE r.rank <= coalesce(q.n, ${fallbackPerCategory})
        ORDER BY md5(${day} || 'order' || r.id::text)
        LIMIT ${take}`;
      return detailsInOrder(ids.map((r) => r.id));
    },

    /** Categories this client has bought from, most units first. */
    purchasedCategories: (clientId: number) =>
      db.$queryRaw<{ type_id: number; units: bigint }[]>`
        SELECT b.type_id, sum(oi.quantity) AS units
        FROM orders o JOIN order_items oi ON oi.order_id = o.id
        JOIN book_copies c ON c.id = oi.book_copy_id JOIN books b ON b.id = c.book_id
        WHERE o.client_id = ${clientId}
        GROUP BY b.type_id ORDER BY units DESC LIMIT 3`,

    /**
     * Title-and-author search on the trigram index: a contained phrase ranks first, then word
     * similarity, which forgives a typo ("harry poter"). Input is already normalized.
     */
    async search(normalized: string, take: number) {
      const like = `%${normalized.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const ids = await db.$queryRaw<{ id: number }[]>`
        SELECT c.id FROM books b
        JOIN book_copies c ON c.book_id = b.id AND c.is_available
        WHERE b.search_text LIKE ${like} OR ${normalized} <% b.search_text
        ORDER BY (b.search_text LIKE ${like}) DESC, word_similarity(${normalized}, b.search_text) DESC,
                 b.ratings_count DESC, c.id
        LIMIT ${take}`;
      return detailsInOrder(ids.map((r) => r.id));
    },
  };
}

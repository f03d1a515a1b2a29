// Every read of the storefront catalog. Only available copies are ever listed.
import type { Prisma } from '../../generated/prisma/client.ts';
import { escapeLike } from '../../lib/text.ts';
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

/** Rows loaded by id, returned in the order of `ids` (which an indexed SQL query chose). */
async function inOrder<T extends { id: number }>(ids: { id: number }[], load: (ids: number[]) => Promise<T[]>): Promise<T[]> {
  if (!ids.length) return [];
  const byId = new Map((await load(ids.map((r) => r.id))).map((row) => [row.id, row]));
  return ids.flatMap(({ id }) => byId.get(id) ?? []);
}

export function catalogRepository(db: Db) {
  const cards = (ids: number[]) => db.bookCopy.findMany({ where: { id: { in: ids } }, select: cardSelect });
  const details = (ids: number[]) => db.bookCopy.findMany({ where: { id: { in: ids } }, select: detailSelect });

  return {
    listTypes: () => db.bookType.findMany({ select: { id: true, name: true }, orderBy: { id: 'asc' } }),

    /** Any letter case, compared as text: Prisma's insensitive equals is an ILIKE, where `%`, `_` and a backslash are pattern syntax. */
    findType: async (name: string) =>
      (await db.$queryRaw<{ id: number; name: string }[]>`SELECT id, name FROM book_types WHERE lower(name) = lower(${name}) LIMIT 1`)[0] ??
      null,

    /** A category's available copies, most-rated books first (index books(type_id, ratings_count)). */
    async pageByType(typeId: number, skip: number, take: number) {
      const [[count], ids] = await Promise.all([
        db.$queryRaw<{ n: bigint }[]>`
          SELECT count(*) AS n FROM books b JOIN book_copies c ON c.book_id = b.id AND c.is_available WHERE b.type_id = ${typeId}`,
        db.$queryRaw<{ id: number }[]>`
          SELECT c.id FROM books b JOIN book_copies c ON c.book_id = b.id AND c.is_available
          WHERE b.type_id = ${typeId}
          ORDER BY b.ratings_count DESC, c.id
          LIMIT ${take} OFFSET ${skip}`,
      ]);
      return { total: Number(count?.n ?? 0), rows: await inOrder(ids, cards) };
    },

    findDetail: (id: number) => db.bookCopy.findFirst({ where: { id, ...available }, select: detailSelect }),

    /** Walks the published_at index from the newest book. */
    async newReleases(take: number) {
      const ids = await db.$queryRaw<{ id: number }[]>`
        SELECT c.id FROM books b JOIN book_copies c ON c.book_id = b.id AND c.is_available
        WHERE b.published_at IS NOT NULL
        ORDER BY b.published_at DESC, c.id DESC
        LIMIT ${take}`;
      return inOrder(ids, cards);
    },

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
      return inOrder(ids, details);
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
      return inOrder(ids, details);
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
      const like = `%${escapeLike(normalized)}%`;
      const ids = await db.$queryRaw<{ id: number }[]>`
        SELECT c.id FROM books b
        JOIN book_copies c ON c.book_id = b.id AND c.is_available
        WHERE b.search_text LIKE ${like} OR ${normalized} <% b.search_text
        ORDER BY (b.search_text LIKE ${like}) DESC, word_similarity(${normalized}, b.search_text) DESC,
                 b.ratings_count DESC, c.id
        LIMIT ${take}`;
      return inOrder(ids, details);
    },
  };
}

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
  // Live rows: a projection may still list a copy withdrawn since its last refresh; it is skipped here.
  const cards = (ids: number[]) => db.bookCopy.findMany({ where: { id: { in: ids }, ...available }, select: cardSelect });
  const details = (ids: number[]) => db.bookCopy.findMany({ where: { id: { in: ids }, ...available }, select: detailSelect });
  /** The ids a home list shows, in its precomputed order, skipping copies no longer available. */
  const homeList = (list: string, take: number) =>
    db.$queryRaw<{ id: number }[]>`
      SELECT h.copy_id AS id FROM home_list_candidates h JOIN book_copies c ON c.id = h.copy_id AND c.is_available
      WHERE h.list = ${list} ORDER BY h.position LIMIT ${take}`;

  return {
    listTypes: () => db.bookType.findMany({ select: { id: true, name: true }, orderBy: { id: 'asc' } }),

    /** Any letter case, compared as text: Prisma's insensitive equals is an ILIKE, where `%`, `_` and a backslash are pattern syntax. */
    findType: async (name: string) =>
      (await db.$queryRaw<{ id: number; name: string }[]>`SELECT id, name FROM book_types WHERE lower(name) = lower(${name}) LIMIT 1`)[0] ??
      null,

    /**
     * A page of a category's available copies, most-rated books first, from the category_listing
     * projection: positions make any page an index range, and the last position is the count.
     */
    async pageByType(typeId: number, skip: number, take: number) {
      const page = await db.$queryRaw<{ id: number; total: number }[]>`
        SELECT l.copy_id AS id, (SELECT coalesce(max(position), 0) FROM category_listing WHERE type_id = ${typeId}) AS total
        FROM category_listing l
        WHERE l.type_id = ${typeId} AND l.position > ${skip} AND l.position <= ${skip + take}
        ORDER BY l.position`;
      const total =
        page[0]?.total ??
        (
          await db.$queryRaw<
            { total: number }[]
          >`SELECT coalesce(max(position), 0) AS total FROM category_listing WHERE type_id = ${typeId}`
        )[0]?.total ??
        0;
      return { total: Number(total), rows: await inOrder(page, cards) };
    },

    findDetail: (id: number) => db.bookCopy.findFirst({ where: { id, ...available }, select: detailSelect }),

    newReleases: async (take: number) => inOrder(await homeList('new-releases', take), cards),
    bestSellers: async (take: number) => inOrder(await homeList('best-sellers', take), cards),
    topRated: async (take: number) => inOrder(await homeList('top-rated', take), details),

    /**
     * A varied pick: in each category, well-rated books (average >= 4, 5,000+ ratings; the most-rated
     * 60 per category, precomputed in home_list_candidates) in an order that changes daily;
     * `perCategory` decides how many each category gives, so a client's favourite categories can give more.
     */
    async recommended(perCategory: Map<number, number>, fallbackPerCategory: number, day: string, take: number) {
      const typeIds = [...perCategory.keys()];
      const counts = [...perCategory.values()];
      const ids = await db.$queryRaw<{ id: number }[]>`
        WITH quota AS (SELECT unnest(${typeIds}::int[]) AS type_id, unnest(${counts}::int[]) AS n),
        ranked AS (
          SELECT c.id, b.type_id, b.ratings_count,
                 row_number() OVER (PARTITION BY b.type_id ORDER BY md5(${day} || c.id::text)) AS rank
          FROM home_list_candidates h
          JOIN book_copies c ON c.id = h.copy_id AND c.is_available AND c.quantity > 0
          JOIN books b ON b.id = c.book_id
          WHERE h.list = 'recommended'
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
      const like = `%${normalized.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const ids = await db.$queryRaw<{ id: number }[]>`
        SELECT c.id FROM books b
        JOIN book_copies c ON c.book_id = b.id AND c.is_available
        WHERE b.search_text LIKE ${like} OR ${normalized} <% b.search_text
        ORDER BY (b.search_text LIKE ${like}) DESC, word_similarity(${normalized}, b.search_text) DESC,
                 b.ratings_count DESC, c.id
        LIMIT ${take}`;
      return inOrder(ids, details);
    },

    /**
     * Searches the trigram index cannot serve (see search_shortcuts): the most-rated books with a word
     * starting with `term` (or, for a common word, that word), whose text also has a word starting
     * with each of `others`. Null when `term` has no shortcut.
     */
    async searchShortcut(term: string, others: string[], take: number) {
      const [shortcut] = await db.$queryRaw<{ found: boolean; ids: number[] }[]>`
        SELECT true AS found, coalesce(array_agg(c.id ORDER BY u.rank, c.id) FILTER (WHERE c.id IS NOT NULL), '{}') AS ids
        FROM search_shortcuts s
        CROSS JOIN LATERAL unnest(s.book_ids) WITH ORDINALITY AS u(book_id, rank)
        JOIN books b ON b.id = u.book_id
        LEFT JOIN book_copies c ON c.book_id = b.id AND c.is_available
          AND NOT EXISTS (SELECT 1 FROM unnest(${others}::text[]) o WHERE position(' ' || o IN ' ' || b.search_text) = 0)
        WHERE s.term = ${term}
        GROUP BY s.term`;
      if (!shortcut?.found) return null;
      return inOrder(
        shortcut.ids.slice(0, take).map((id) => ({ id })),
        details,
      );
    },
  };
}

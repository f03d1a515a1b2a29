// What the storefront shows: cards, details and search results, shaped as spec section 3 names them.

import { coverUrl } from '../../lib/cover.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { toMoney } from '../../lib/money.ts';
import { normalizeForSearch } from '../../lib/text.ts';
import type { Db } from '../../plugins/prisma.ts';
import { type CardRow, catalogRepository, type DetailRow } from './catalog-repository.ts';

export const HOME_LIST_SIZE = 20;
export const SEARCH_LIMIT = 50;
/** Words this short have no trigram; search_shortcuts holds their prefixes. */
const SHORT_WORD = 2;
const RECOMMENDED_PER_CATEGORY = 2;

export const toCard = (row: CardRow) => ({
  id: row.id,
  name: row.book.name,
  imageUrl: coverUrl(row.book.imageUrl, row.book.name, row.book.author.fullName),
  authorName: row.book.author.fullName,
  price: toMoney(row.price),
  quantity: row.quantity,
});

export const averageRating = (ratingsSum: bigint | number, ratingsCount: number) =>
  ratingsCount ? Math.round((Number(ratingsSum) / ratingsCount) * 100) / 100 : 0;

export const toDetail = (row: DetailRow) => ({
  id: row.id,
  name: row.book.name,
  imageUrl: coverUrl(row.book.imageUrl, row.book.name, row.book.author.fullName),
  author: row.book.author.fullName,
  authorName: row.book.author.fullName,
  category: row.book.type.name,
  price: toMoney(row.price),
  quantity: row.quantity,
  description: row.book.description ?? '',
  averageRating: averageRating(row.book.ratingsSum, row.book.ratingsCount),
  ratingsCount: row.book.ratingsCount,
});

export function catalogService(db: Db) {
  const repo = catalogRepository(db);
  return {
    types: () => repo.listTypes(),

    async byType(typeName: string, pageNumber: number, pageSize: number) {
      const type = await repo.findType(typeName);
      if (!type) throw notFound(`There is no category named '${typeName}'.`);
      const { total, rows } = await repo.pageByType(type.id, (pageNumber - 1) * pageSize, pageSize);
      return { booksCopies: rows.map(toCard), totalPages: Math.ceil(total / pageSize) };
    },

    async byId(id: number) {
      const row = await repo.findDetail(id);
      if (!row) throw notFound('This book is not available.');
      return toDetail(row);
    },

    newReleases: async () => (await repo.newReleases(HOME_LIST_SIZE)).map(toCard),
    bestSellers: async () => (await repo.bestSellers(HOME_LIST_SIZE)).map(toCard),
    topRated: async () => (await repo.topRated(HOME_LIST_SIZE)).map(toDetail),

    async recommended(clientId: number | null, today = new Date()) {
      const quota = new Map<number, number>();
      if (clientId !== null) {
        // A signed-in client's top categories give most of the list; the others still appear.
        const favourites = await repo.purchasedCategories(clientId);
        for (const [i, f] of favourites.entries()) quota.set(f.type_id, [6, 4, 3][i] ?? RECOMMENDED_PER_CATEGORY);
      }
      return (await repo.recommended(quota, RECOMMENDED_PER_CATEGORY, today.toISOString().slice(0, 10), HOME_LIST_SIZE)).map(toDetail);
    },

    async search(text: string) {
      const normalized = normalizeForSearch(text);
      if (!normalized) throw badRequest('Please enter a title or an author to search for.');
      if (normalized.length > 200) throw badRequest('The search text is too long.');
      // One- and two-letter words, and the commonest words, go to the precomputed shortcuts: a
      // trigram index cannot serve them, and scanning for them grows with the catalog.
      const words = normalized.split(' ');
      const longest = words.reduce((a, b) => (b.length > a.length ? b : a));
      const others = words.filter((w) => w !== longest);
      if (longest.length <= SHORT_WORD) return ((await repo.searchShortcut(longest, others, SEARCH_LIMIT)) ?? []).map(toDetail);
      if (words.length === 1) {
        const common = await repo.searchShortcut(longest, [], SEARCH_LIMIT);
        if (common) return common.map(toDetail);
      }
      return (await repo.search(normalized, SEARCH_LIMIT)).map(toDetail);
    },
  };
}

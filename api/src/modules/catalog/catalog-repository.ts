// Every read of the storefront catalog, one statement each (see catalog-queries.ts). Only available
// copies are ever listed.
import { escapeLike } from '../../lib/text.ts';
import type { SqlReader } from '../../plugins/prisma.ts';
import {
  type BrowseFilters,
  type BrowseRow,
  type BrowseSort,
  categoryBrowseSql,
  categoryPageSql,
  SUGGESTIONS_SQL,
  type SuggestionRow,
  searchBrowseSql,
} from './browse-queries.ts';
import {
  AUTHOR_BOOKS_SQL,
  AUTHOR_SQL,
  BOOK_PAGE_SQL,
  type BookPageRow,
  CATEGORY_PAGE_SQL,
  type CardRow,
  DETAIL_SQL,
  type DetailRow,
  HOME_CARDS_SQL,
  HOME_DETAILS_SQL,
  LAST_COPY_ID_SQL,
  PURCHASED_CATEGORIES_SQL,
  RECOMMENDED_SQL,
  type SearchTerms,
  SITEMAP_BOOKS_SQL,
  searchSql,
  searchValues,
  TYPES_SQL,
} from './catalog-queries.ts';

export function catalogRepository(sql: SqlReader) {
  // The statement text is fixed; values travel as $n parameters.
  const query = <T>(text: string, ...values: unknown[]) => sql.query<T>(text, values);

  return {
    listTypes: () => query<{ id: number; name: string }>(TYPES_SQL),

    /**
     * A page of a category's available copies, most-rated books first, from the category_listing
     * projection: positions make any page an index range, and the last position is the count.
     * Null when there is no such category (any letter case).
     */
    async pageByType(typeName: string, skip: number, take: number) {
      const [head, ...rows] = await query<CardRow & { typeId: number | null; total: number | null }>(
        CATEGORY_PAGE_SQL,
        typeName,
        skip,
        skip + take,
      );
      if (head?.typeId == null) return null;
      return { total: Number(head.total), rows: rows as CardRow[] };
    },

    findDetail: async (id: number) => (await query<DetailRow>(DETAIL_SQL, id))[0] ?? null,
    findAuthor: async (id: number) => (await query<{ id: number; name: string; booksOnSale: number }>(AUTHOR_SQL, id))[0] ?? null,
    authorBooks: (authorId: number, skip: number, take: number) => query<DetailRow>(AUTHOR_BOOKS_SQL, authorId, skip, skip + take),
    findBookPage: async (id: number) => (await query<BookPageRow>(BOOK_PAGE_SQL, id))[0] ?? null,

    /** The available copies with ids in (afterId, lastId], in id order. */
    sitemapBooks: (afterId: number, lastId: number) => query<{ id: number; name: string }>(SITEMAP_BOOKS_SQL, afterId, lastId),
    lastCopyId: async () => (await query<{ lastId: number }>(LAST_COPY_ID_SQL))[0]?.lastId ?? 0,

    newReleases: (take: number) => query<CardRow>(HOME_CARDS_SQL, 'new-releases', take),
    bestSellers: (take: number) => query<CardRow>(HOME_CARDS_SQL, 'best-sellers', take),
    topRated: (take: number) => query<DetailRow>(HOME_DETAILS_SQL, 'top-rated', take),

    /** `perCategory` decides how many each category gives, so a client's favourite categories can give more. */
    recommended: (perCategory: Map<number, number>, fallbackPerCategory: number, day: string, take: number) =>
      query<DetailRow>(RECOMMENDED_SQL, [...perCategory.keys()], [...perCategory.values()], fallbackPerCategory, day, take),

    /** Categories this client has bought from, most units first. */
    purchasedCategories: (clientId: number) => query<{ typeId: number }>(PURCHASED_CATEGORIES_SQL, clientId),

    search: (terms: SearchTerms, take: number) => query<DetailRow>(searchSql(terms), ...searchValues(terms, take)),

    /** A category page or a search's results, sorted, filtered and paged, with its counts: one statement, one row each. */
    async browseCategory(typeName: string, sort: BrowseSort, filters: BrowseFilters, skip: number, take: number) {
      const { text, values } = categoryBrowseSql(typeName, sort, filters, skip, take);
      return (await sql.query<BrowseRow>(text, values, true))[0]!;
    },
    /** A category page's rows without its counts, for a listing whose counts are kept (typeId null: no such category). */
    async browseCategoryPage(typeName: string, sort: BrowseSort, filters: BrowseFilters, skip: number, take: number) {
      const { text, values } = categoryPageSql(typeName, sort, filters, skip, take);
      return (await sql.query<Pick<BrowseRow, 'typeId' | 'rows'>>(text, values, true))[0]!;
    },
    async browseSearch(terms: SearchTerms, sort: BrowseSort, filters: BrowseFilters, skip: number, take: number) {
      const { text, values } = searchBrowseSql(terms, sort, filters, skip, take);
      return (await sql.query<BrowseRow>(text, values, true))[0]!;
    },

    /** Suggestions for a normalized prefix of 2 letters or more. */
    suggest(prefix: string, authors: number, take: number) {
      const letters = prefix.length >= 5 ? 5 : prefix.length >= 3 ? 3 : 2;
      return query<SuggestionRow>(SUGGESTIONS_SQL[letters], `${escapeLike(prefix)}%`, prefix.slice(0, letters), authors, take);
    },
  };
}

export type CatalogRepository = ReturnType<typeof catalogRepository>;

// Issue 30's calls in the growth run: a category page in every sort and filter combination (each
// sort's row is its worst combination's p95), a filtered and sorted search, suggestions as one
// types, with their goals; and, at the grown size, each call's statements per request and the shape
// of its plan (which indexes it reads, and whether anything scans a catalog table).

import { normalizeForSearch } from '@bookshop/rules/browse';
import pg from 'pg';
import {
  BROWSE_SORTS,
  type BrowseFilters,
  type BrowseSort,
  categoryBrowseSql,
  SUGGESTIONS_SQL,
  searchBrowseSql,
} from '../../api/src/modules/catalog/browse-queries.ts';
import { searchTerms } from '../../api/src/modules/catalog/catalog-service.ts';

export type BrowseCall = { label: string; path: () => Promise<string | string[]>; goal: (seedP95: number) => number };

/** The filter sets every sort is measured with: none, each alone, and together. */
export const FILTER_SETS: { name: string; filters: (authorId: number) => BrowseFilters }[] = [
  { name: 'none', filters: () => ({}) },
  { name: 'price', filters: () => ({ priceMin: 10, priceMax: 19.99 }) },
  { name: 'in stock', filters: () => ({ inStock: true }) },
  { name: 'rating', filters: () => ({ minRating: 4 }) },
  { name: 'years', filters: () => ({ yearFrom: 1990, yearTo: 2009 }) },
  { name: 'author', filters: (authorId) => ({ authorId }) },
  { name: 'price+stock+rating', filters: () => ({ priceMin: 10, priceMax: 19.99, inStock: true, minRating: 4 }) },
  {
    name: 'all',
    filters: (authorId) => ({ priceMin: 10, priceMax: 29.99, inStock: true, minRating: 3, yearFrom: 1950, yearTo: 2017, authorId }),
  },
];

const query = (sort: BrowseSort, filters: BrowseFilters, extra: Record<string, string> = {}) => {
  const q = new URLSearchParams({ ...extra, sort, pageSize: '15' });
  for (const [k, v] of Object.entries(filters)) if (v !== undefined) q.set(k, String(v));
  return q.toString();
};

export const SEARCHES: { text: string; sort: BrowseSort; filters: BrowseFilters }[] = [
  { text: 'harry poter', sort: 'price-asc', filters: { inStock: true, minRating: 3 } },
  { text: 'the', sort: 'newest', filters: { priceMin: 10, priceMax: 29.99 } },
  { text: 'tolkien', sort: 'top-rated', filters: { yearFrom: 1950 } },
  { text: 'stephen king', sort: 'relevance', filters: { inStock: true } },
];
export const SUGGESTIONS = ['ha', 'har', 'harry p', 'king', 'the lo', 'rowl'];

/** The calls, given the busiest author of Fantasy (for the author filter). */
export function browseCalls(fantasyAuthor: () => Promise<number>): BrowseCall[] {
  return [
    ...BROWSE_SORTS.map((sort) => ({
      label: `browse Fantasy ${sort} (worst of ${FILTER_SETS.length})`,
      path: async () => {
        const authorId = await fantasyAuthor();
        return FILTER_SETS.map((set) => `/api/public/book-copy/browse/Fantasy?${query(sort, set.filters(authorId))}`);
      },
      goal: () => 50,
    })),
    {
      label: 'browse Fantasy price-asc page 600',
      path: async () => `/api/public/book-copy/browse/Fantasy?${query('price-asc', {}, { pageNumber: '600' })}`,
      goal: () => 50,
    },
    {
      label: `search filtered+sorted (worst of ${SEARCHES.length})`,
      path: async () => SEARCHES.map((s) => `/api/public/book-copy/search/?${query(s.sort, s.filters, { text: s.text })}`),
      goal: () => 50,
    },
    {
      label: `suggestions (worst of ${SUGGESTIONS.length})`,
      path: async () => SUGGESTIONS.map((text) => `/api/public/book-copy/suggestions/?text=${encodeURIComponent(text)}`),
      goal: () => 20,
    },
  ];
}

interface PlanNode {
  'Node Type': string;
  'Actual Loops'?: number;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}
const CATALOG_TABLES = new Set(['books', 'book_copies', 'browse_listing', 'search_suggestions', 'authors']);

/**
 * The plan's reads as it ran: each index used, and any sequential scan of a catalog table (which the
 * goal forbids). Branches that never ran (a search's shortcut path when it searched by words) are left out.
 */
async function planShape(db: pg.Client, text: string, values: unknown[]) {
  const { rows } = await db.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, values);
  const reads = new Set<string>();
  const scans = new Set<string>();
  const walk = (node: PlanNode) => {
    if (node['Actual Loops'] === 0) return;
    if (node['Index Name']) reads.add(node['Index Name']);
    if (node['Node Type'] === 'Seq Scan' && node['Relation Name'] && CATALOG_TABLES.has(node['Relation Name']))
      scans.add(node['Relation Name']);
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(rows[0]!['QUERY PLAN'][0]!.Plan);
  return { reads: [...reads].sort(), scans: [...scans] };
}

/** Prints, for a few of the calls, the statements of one request and the plan's shape at this size. */
export async function reportBrowsePlans(url: string, statementsOf: (path: string) => Promise<number>, fantasyAuthor: number) {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const rows: { call: string; statements: number; reads: string[]; scans: string[] }[] = [];
  try {
    const cases: { call: string; path: string; sql: { text: string; values: unknown[] } }[] = [];
    for (const sort of BROWSE_SORTS) {
      for (const set of [FILTER_SETS[0]!, FILTER_SETS[6]!, FILTER_SETS[7]!]) {
        const filters = set.filters(fantasyAuthor);
        cases.push({
          call: `browse ${sort}, ${set.name}`,
          path: `/api/public/book-copy/browse/Fantasy?${query(sort, filters)}`,
          sql: categoryBrowseSql('Fantasy', sort, filters, 0, 15),
        });
      }
    }
    for (const s of SEARCHES) {
      cases.push({
        call: `search "${s.text}" ${s.sort}`,
        path: `/api/public/book-copy/search/?${query(s.sort, s.filters, { text: s.text })}`,
        sql: searchBrowseSql(searchTerms(normalizeForSearch(s.text)), s.sort, s.filters, 0, 15),
      });
    }
    console.log('\nissue 30 calls at this size: statements per request, indexes read, catalog tables scanned');
    for (const c of cases) {
      const shape = await planShape(db, c.sql.text, c.sql.values);
      const statements = await statementsOf(c.path);
      rows.push({ call: c.call, statements, ...shape });
      console.log(
        `  ${c.call.padEnd(40)} ${String(statements).padStart(2)}  ${shape.scans.length ? `SCANS ${shape.scans.join(', ')}` : 'no scan'}  ${shape.reads.join(', ')}`,
      );
    }
    for (const text of SUGGESTIONS) {
      const prefix = normalizeForSearch(text);
      const letters = prefix.length >= 5 ? 5 : prefix.length >= 3 ? 3 : 2;
      const shape = await planShape(db, SUGGESTIONS_SQL[letters], [`${prefix}%`, prefix.slice(0, letters), 3, 8]);
      const statements = await statementsOf(`/api/public/book-copy/suggestions/?text=${encodeURIComponent(text)}`);
      rows.push({ call: `suggestions "${text}"`, statements, ...shape });
      console.log(
        `  ${`suggestions "${text}"`.padEnd(40)} ${String(statements).padStart(2)}  ${shape.scans.length ? `SCANS ${shape.scans.join(', ')}` : 'no scan'}  ${shape.reads.join(', ')}`,
      );
    }
  } finally {
    await db.end();
  }
  return rows;
}

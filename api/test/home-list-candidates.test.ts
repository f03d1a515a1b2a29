// home_list_candidates reads each list in its own order from an index and stops at the list's size
// (migration home_lists_by_index). It must keep exactly the rows, and the positions, of the view it
// replaced, which ranked every available copy: held here to that ranking, read from the migration that
// made it, through the ties and exclusions each list has to break the same way.
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase } from './helpers.ts';

/** The view's definition before the migration, from the migration that made it: the whole catalog joined and ranked, four times. */
const RANKING_EVERY_COPY = (() => {
  const migration = readFileSync(new URL('../../prisma/migrations/20261123080000_search_by_words/migration.sql', import.meta.url), 'utf8');
  const created = 'CREATE MATERIALIZED VIEW home_list_candidates AS';
  const start = migration.indexOf(created) + created.length;
  return migration.slice(start, migration.indexOf(';', start));
})();

const ROWS_KEPT = 'SELECT list, copy_id, type_id, position FROM home_list_candidates ORDER BY list, position';
const RANKED = `SELECT * FROM (${RANKING_EVERY_COPY}) r ORDER BY list, position`;

let db: pg.Client;
beforeAll(async () => {
  db = new pg.Client({ connectionString: (await createTestDatabase()).url });
  await db.connect();
});
afterAll(() => db.end());

/** The view rebuilt after `change`, set against the reference ranking, in a transaction rolled back after. */
async function keptAndRankedAfter(change: string) {
  await db.query('BEGIN');
  try {
    await db.query(change);
    await db.query('REFRESH MATERIALIZED VIEW home_list_candidates');
    return { kept: (await db.query(ROWS_KEPT)).rows, ranked: (await db.query(RANKED)).rows };
  } finally {
    await db.query('ROLLBACK');
  }
}

it('keeps the rows and positions of ranking every copy, on the seed catalog', async () => {
  const { kept, ranked } = await keptAndRankedAfter('SELECT 1');
  expect(new Set(kept.map((row) => row.list))).toEqual(new Set(['new-releases', 'best-sellers', 'top-rated', 'recommended']));
  expect(kept).toEqual(ranked);
});

it('breaks every tie by the copy, and leaves out what each list leaves out, as ranking every copy does', async () => {
  // Second copies of well-rated books, so that a book's copies share its date, ratings and category.
  // Then ties on every list's order, each crossing the list's end: one date for many books, one count
  // of sales for many copies, one average and count for many books past 10,000 ratings, one count for
  // many Recommended candidates of one category. And what a list leaves out at its top: copies
  // withdrawn, or out of stock for Recommended.
  const change = `
    INSERT INTO book_copies (book_id, price, quantity, is_available, units_sold)
      SELECT id, 12.50, 4, true, 0 FROM books ORDER BY ratings_count DESC, id LIMIT 150;
    UPDATE books SET published_at = DATE '2031-01-01' WHERE id IN (SELECT id FROM books ORDER BY ratings_count DESC, id LIMIT 60);
    UPDATE book_copies SET units_sold = 999 WHERE id IN (SELECT id FROM book_copies ORDER BY id DESC LIMIT 70);
    UPDATE books SET ratings_count = 20000, ratings_sum = 90000 WHERE id IN (SELECT id FROM books ORDER BY id LIMIT 80);
    UPDATE books SET ratings_count = 9000000, ratings_sum = 40000000
      WHERE id IN (SELECT id FROM books WHERE type_id = (SELECT min(type_id) FROM books) ORDER BY id DESC LIMIT 90);
    UPDATE book_copies SET is_available = false WHERE id IN (SELECT id FROM book_copies WHERE units_sold = 999 ORDER BY id LIMIT 5);
    UPDATE book_copies SET quantity = 0
      WHERE book_id IN (SELECT id FROM books WHERE ratings_count = 9000000 ORDER BY id DESC LIMIT 10)`;
  const { kept, ranked } = await keptAndRankedAfter(change);
  expect(kept).toEqual(ranked);
  // Each list is full, so the ties above met its end.
  for (const list of ['new-releases', 'best-sellers', 'top-rated'])
    expect(
      kept.filter((row) => row.list === list),
      list,
    ).toHaveLength(40);
});

it('reads each list from an index and stops at its size: less than one pass over either table in all', async () => {
  const [{ definition }] = (await db.query<{ definition: string }>("SELECT pg_get_viewdef('home_list_candidates') AS definition")).rows as [
    { definition: string },
  ];
  const [
    {
      'QUERY PLAN': [{ Plan: plan }],
    },
  ] = (await db.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${definition}`)).rows;
  // Every row a scan of books or book_copies read, kept or filtered out, over all its loops.
  const read: Record<string, number> = { books: 0, book_copies: 0 };
  const walk = (node: PlanNode) => {
    if (node['Relation Name'] && node['Relation Name'] in read) {
      read[node['Relation Name']]! += (node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0)) * node['Actual Loops'];
    }
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(plan);
  const [sizes] = (
    await db.query('SELECT (SELECT count(*) FROM books)::int AS books, (SELECT count(*) FROM book_copies)::int AS book_copies')
  ).rows;
  // Ranking every copy read each table whole at least once (a million rows each at a million books).
  expect(read.books).toBeLessThan(sizes.books);
  expect(read.book_copies).toBeLessThan(sizes.book_copies);
  expect(read.books).toBeGreaterThan(0);
});

interface PlanNode {
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

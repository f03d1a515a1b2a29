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

/**
 * The view rebuilt after `change`, set against the reference ranking, in a transaction rolled back
 * after; `probe` is read in the same transaction.
 */
async function keptAndRankedAfter(change: string, probe = 'SELECT 1') {
  await db.query('BEGIN');
  try {
    await db.query(change);
    await db.query('REFRESH MATERIALIZED VIEW home_list_candidates');
    return { kept: (await db.query(ROWS_KEPT)).rows, ranked: (await db.query(RANKED)).rows, probed: (await db.query(probe)).rows };
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
  // Then, at the top of each list and past its end, a tie on its order: one date for 60 books (two
  // copies each), 999 sales for 70 copies, an average of 4.9 over 20,000 ratings for 80 books (the
  // seed's best is 4.77), and 9,000,000 ratings for 90 books of the first category. Then what each list
  // leaves out, among the copies it would keep: out of stock for Recommended, and withdrawn, its first
  // two copies in every list.
  const change = `
    INSERT INTO book_copies (book_id, price, quantity, is_available, units_sold)
      SELECT id, 12.50, 4, true, 0 FROM books ORDER BY ratings_count DESC, id LIMIT 150;
    UPDATE books SET published_at = DATE '2031-01-01' WHERE id IN (SELECT id FROM books ORDER BY ratings_count DESC, id LIMIT 60);
    UPDATE book_copies SET units_sold = 999 WHERE id IN (SELECT id FROM book_copies ORDER BY id DESC LIMIT 70);
    UPDATE books SET ratings_count = 20000, ratings_sum = 98000 WHERE id IN (SELECT id FROM books ORDER BY id DESC LIMIT 80);
    UPDATE books SET ratings_count = 9000000, ratings_sum = 40000000
      WHERE id IN (SELECT id FROM books WHERE type_id = (SELECT min(type_id) FROM books) ORDER BY id DESC LIMIT 90);
    UPDATE book_copies SET quantity = 0 WHERE book_id IN (SELECT id FROM books WHERE ratings_count = 9000000 ORDER BY id LIMIT 10);
    UPDATE book_copies SET is_available = false WHERE id IN (SELECT copy_id FROM (${RANKING_EVERY_COPY}) r WHERE position <= 2)`;
  // How many candidates share the tie at each list's top, and whether nothing outranks them.
  const probe = `
    WITH available AS (SELECT c.*, b.published_at, b.ratings_count, b.ratings_sum, b.type_id
                       FROM book_copies c JOIN books b ON b.id = c.book_id WHERE c.is_available)
    SELECT 'new-releases' AS list, count(*) FILTER (WHERE published_at = DATE '2031-01-01')::int AS tied,
           bool_and(published_at IS NULL OR published_at <= DATE '2031-01-01') AS "onTop" FROM available
    UNION ALL
    SELECT 'best-sellers', count(*) FILTER (WHERE units_sold = 999)::int, bool_and(units_sold <= 999) FROM available
    UNION ALL
    SELECT 'top-rated', count(*) FILTER (WHERE ratings_count = 20000 AND ratings_sum = 98000)::int,
           bool_and(ratings_count < 10000 OR ratings_sum::numeric / ratings_count <= 4.9) FROM available
    UNION ALL
    SELECT 'recommended', count(*) FILTER (WHERE ratings_count = 9000000 AND quantity > 0)::int,
           bool_and(type_id <> (SELECT min(type_id) FROM books) OR ratings_count <= 9000000) FROM available`;
  const { kept, ranked, probed } = await keptAndRankedAfter(change, probe);
  expect(kept).toEqual(ranked);
  for (const { list, tied, onTop } of probed) {
    expect(onTop, list).toBe(true);
    expect(tied, list).toBeGreaterThan(list === 'recommended' ? 60 : 40);
  }
  for (const list of ['new-releases', 'best-sellers', 'top-rated'])
    expect(
      kept.filter((row) => row.list === list),
      list,
    ).toHaveLength(40);
});

it('reads each list from an index and stops at its size: a fraction of either table in all', async () => {
  const [{ definition }] = (await db.query<{ definition: string }>("SELECT pg_get_viewdef('home_list_candidates') AS definition")).rows as [
    { definition: string },
  ];
  const plan = async (explain: string) => (await db.query(`EXPLAIN (${explain}, FORMAT JSON) ${definition}`)).rows[0]['QUERY PLAN'][0].Plan;
  // Every row a scan of books or book_copies read, kept or filtered out, over all its loops (PostgreSQL
  // 18 gives each loop's rows as a fraction, so the inner lookups of a join are not rounded away).
  const read: Record<string, number> = { books: 0, book_copies: 0 };
  const walk = (node: PlanNode) => {
    if (node['Relation Name'] && node['Relation Name'] in read) {
      read[node['Relation Name']]! += (node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0)) * node['Actual Loops'];
    }
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(await plan('ANALYZE'));
  const [sizes] = (
    await db.query('SELECT (SELECT count(*) FROM books)::int AS books, (SELECT count(*) FROM book_copies)::int AS book_copies')
  ).rows;
  // Ranking every copy read each table whole at least once (a million rows each at a million books).
  // Here Recommended's ten walks, to 60 copies each, are most of what is read.
  expect(read.books).toBeGreaterThan(0);
  expect(read.books).toBeLessThan(sizes.books / 4);
  expect(read.book_copies).toBeLessThan(sizes.book_copies / 4);

  // Not by the seed's statistics alone: with whole-table scans ruled out, every list still has an index to read.
  await db.query('BEGIN');
  try {
    await db.query('SET LOCAL enable_seqscan = off');
    const scans: string[] = [];
    const collect = (node: PlanNode) => {
      if (node['Relation Name']) scans.push(`${node['Node Type']} on ${node['Relation Name']}`);
      for (const child of node.Plans ?? []) collect(child);
    };
    collect(await plan('COSTS false'));
    expect(scans.filter((scan) => /^Seq Scan on (books|book_copies)$/.test(scan))).toEqual([]);
  } finally {
    await db.query('ROLLBACK');
  }
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

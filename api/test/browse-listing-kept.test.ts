// browse_listing is a table kept from the copies that changed (migration browse_listing_kept_by_changes):
// triggers note each copy whose row may differ, and browse_listing_catch_up() rewrites those rows from
// browse_listing_source, the definition a rebuild would use. Held here against that definition after
// every kind of catalog write, through the shop's own checkout as well as by hand, with writers that
// commit while a catch-up runs (a book's change and its copy's on either side of one), and by what a
// catch-up of one copy reads.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from './helpers.ts';

// Sales schedule their own catch-up after 15 s; the tests here call it themselves, well within that.
const t = await createTestApp();
const client = new pg.Client({ connectionString: t.db.url });
beforeAll(() => client.connect());
afterAll(() => client.end());

const query = async <T extends pg.QueryResultRow>(sql: string, params: unknown[] = []) => (await client.query<T>(sql, params)).rows;
const one = async <T extends pg.QueryResultRow>(sql: string, params: unknown[] = []) => (await query<T>(sql, params))[0]!;
type CatchUp = { rewritten: number; membershipChanged: boolean };
const catchUp = () =>
  one<CatchUp>('SELECT rewritten::int AS rewritten, membership_changed AS "membershipChanged" FROM browse_listing_catch_up()');
/** Rows the table holds and the definition does not give, and the other way round, as text. */
const drift = async () => {
  const { extra, missing } = await one<{ extra: string[]; missing: string[] }>(`
    SELECT (SELECT coalesce(array_agg(r::text), '{}') FROM (SELECT * FROM browse_listing EXCEPT SELECT * FROM browse_listing_source) r) AS extra,
           (SELECT coalesce(array_agg(r::text), '{}') FROM (SELECT * FROM browse_listing_source EXCEPT SELECT * FROM browse_listing) r) AS missing`);
  return { extra, missing };
};
const noted = async () => (await one<{ n: number }>('SELECT count(*)::int AS n FROM browse_listing_changes')).n;
const IN_SYNC = { extra: [], missing: [] };

/** Copies on sale, in stock, that no order has bought, each its book's only copy (each test catches up first). */
const freshCopies = async (n: number) =>
  query<{ id: number; bookId: number }>(
    `SELECT c.id, c.book_id AS "bookId" FROM book_copies c
       WHERE c.is_available AND c.quantity > 2 AND NOT EXISTS (SELECT FROM order_items i WHERE i.book_copy_id = c.id)
         AND NOT EXISTS (SELECT FROM book_copies o WHERE o.book_id = c.book_id AND o.id <> c.id)
     ORDER BY c.id DESC LIMIT $1`,
    [n],
  );

describe('browse_listing kept from the copies that changed', () => {
  it('starts as its definition gives it, with nothing noted', async () => {
    await catchUp();
    expect(await drift()).toEqual(IN_SYNC);
    expect(await noted()).toBe(0);
  });

  it('after every kind of catalog write, one catch-up leaves exactly what a rebuild would, and takes every note', async () => {
    const [sold, priced, soldOut, withdrawn, moved, rated, recategorized, reauthored, redated, removed] = await freshCopies(10);
    const backOnSale = await one<{ id: number }>('SELECT id FROM book_copies WHERE NOT is_available ORDER BY id LIMIT 1').catch(() => null);
    const anotherBook = await one<{ id: number; typeId: number; authorId: number }>(
      `SELECT b.id, b.type_id AS "typeId", b.author_id AS "authorId" FROM books b
       WHERE b.type_id <> (SELECT type_id FROM books WHERE id = $1) AND b.author_id <> (SELECT author_id FROM books WHERE id = $1)
       ORDER BY b.id LIMIT 1`,
      [recategorized!.bookId],
    );

    // A sale through the shop's own checkout: its stock and units sold.
    const shopper = await t.newClient();
    const line = await t.addToCart(shopper.cookie, sold!.id, 2);
    const { total } = await one<{ total: string }>('SELECT (price * 2)::text AS total FROM book_copies WHERE id = $1', [sold!.id]);
    const order = await t.checkout(shopper.cookie, { cartItemsIds: [line], totalPrice: Number(total), totalQuantity: 2 });
    expect(order.statusCode, order.body).toBe(200);
    // And every other write, by hand.
    await query('UPDATE book_copies SET price = price + 1.25 WHERE id = $1', [priced!.id]);
    await query('UPDATE book_copies SET quantity = 0 WHERE id = $1', [soldOut!.id]);
    await query('UPDATE book_copies SET is_available = false WHERE id = $1', [withdrawn!.id]);
    if (backOnSale) await query('UPDATE book_copies SET is_available = true WHERE id = $1', [backOnSale.id]);
    await query('UPDATE book_copies SET book_id = $2 WHERE id = $1', [moved!.id, anotherBook.id]);
    await query('UPDATE books SET ratings_sum = ratings_sum + 5, ratings_count = ratings_count + 1 WHERE id = $1', [rated!.bookId]);
    await query('UPDATE books SET type_id = $2 WHERE id = $1', [recategorized!.bookId, anotherBook.typeId]);
    await query('UPDATE books SET author_id = $2 WHERE id = $1', [reauthored!.bookId, anotherBook.authorId]);
    await query("UPDATE books SET published_at = DATE '1901-01-01' WHERE id = $1", [redated!.bookId]);
    const [added] = await query<{ id: number }>(
      'INSERT INTO book_copies (book_id, price, quantity, is_available) VALUES ($1, 12.5, 4, true), ($1, 13.5, 4, false) RETURNING id',
      [anotherBook.id],
    );
    await query('DELETE FROM book_copies WHERE id = $1', [removed!.id]);

    const before = await drift();
    // Each write left the table behind its definition until the catch-up (the sale in two of its values).
    const behind = new Set([...before.extra, ...before.missing].map((row) => Number(/^\((\d+),/.exec(row)![1])));
    for (const copy of [sold, priced, soldOut, withdrawn, moved, rated, recategorized, reauthored, redated, removed, added, backOnSale])
      if (copy) expect(behind, `copy ${copy.id}`).toContain(copy.id);

    expect(await catchUp()).toMatchObject({ membershipChanged: true });
    expect(await drift()).toEqual(IN_SYNC);
    expect(await noted()).toBe(0);
  });

  it('a restock of a copy in stock, or a write of what it held, notes nothing', async () => {
    const [copy] = await freshCopies(1);
    await catchUp();
    await query('UPDATE book_copies SET quantity = quantity + 3 WHERE id = $1', [copy!.id]);
    await query('UPDATE book_copies SET price = price WHERE id = $1', [copy!.id]);
    await query('UPDATE books SET name = name || $2 WHERE id = $1', [copy!.bookId, ' ']);
    expect(await noted()).toBe(0);
    expect(await catchUp()).toEqual({ rewritten: 0, membershipChanged: false });
  });

  it('says the counts are stale only when a copy came, went or moved between categories or authors', async () => {
    const [copy] = await freshCopies(1);
    await catchUp();
    await query('UPDATE book_copies SET units_sold = units_sold + 1, quantity = 0 WHERE id = $1', [copy!.id]);
    expect(await catchUp()).toEqual({ rewritten: 1, membershipChanged: false });
    await query('UPDATE book_copies SET is_available = false WHERE id = $1', [copy!.id]);
    expect(await catchUp()).toEqual({ rewritten: 1, membershipChanged: true });
    await query('UPDATE book_copies SET is_available = true, quantity = 3 WHERE id = $1', [copy!.id]);
    expect(await catchUp()).toEqual({ rewritten: 1, membershipChanged: true });
    expect(await drift()).toEqual(IN_SYNC);
  });

  it('a write that commits while a catch-up runs is caught up by the next one, never lost', async () => {
    const [copy] = await freshCopies(1);
    await catchUp();
    const writer = new pg.Client({ connectionString: t.db.url });
    await writer.connect();
    try {
      await writer.query('BEGIN');
      await writer.query('UPDATE book_copies SET price = price + 2 WHERE id = $1', [copy!.id]);
      // The catch-up cannot see the note before the write commits: it takes nothing of it.
      expect(await catchUp()).toEqual({ rewritten: 0, membershipChanged: false });
      await writer.query('COMMIT');
    } finally {
      await writer.end();
    }
    expect((await drift()).extra).toHaveLength(1);
    expect(await catchUp()).toEqual({ rewritten: 1, membershipChanged: false });
    expect(await drift()).toEqual(IN_SYNC);
  });

  it("a book's change and a copy put on sale meanwhile, committed on either side of a catch-up, are both caught up", async () => {
    const [copy] = await freshCopies(1);
    await query('UPDATE book_copies SET is_available = false WHERE id = $1', [copy!.id]);
    await catchUp();
    const reviewer = new pg.Client({ connectionString: t.db.url });
    await reviewer.connect();
    try {
      // The book's ratings move (a review) in a transaction that cannot yet see the copy on sale.
      await reviewer.query('BEGIN');
      await reviewer.query('UPDATE books SET ratings_sum = ratings_sum + 5, ratings_count = ratings_count + 1 WHERE id = $1', [
        copy!.bookId,
      ]);
      await query('UPDATE book_copies SET is_available = true WHERE id = $1', [copy!.id]);
      // Caught up before the review commits: the copy with the book's old ratings, as they still are.
      expect(await catchUp()).toEqual({ rewritten: 1, membershipChanged: true });
      await reviewer.query('COMMIT');
    } finally {
      await reviewer.end();
    }
    await catchUp();
    expect(await drift()).toEqual(IN_SYNC);
  });

  it('a catch-up of one copy reads that copy by its keys, not the catalog', async () => {
    const [copy] = await freshCopies(1);
    await catchUp();
    await query('BEGIN');
    try {
      await query('UPDATE book_copies SET units_sold = units_sold + 1 WHERE id = $1', [copy!.id]);
      await query('UPDATE books SET ratings_count = ratings_count + 1, ratings_sum = ratings_sum + 4 WHERE id = $1', [copy!.bookId]);
      const { seq: before } = await one<{ seq: number }>(
        "SELECT coalesce(sum(seq_tup_read), 0)::int AS seq FROM pg_stat_xact_user_tables WHERE relname IN ('books', 'book_copies', 'browse_listing')",
      );
      expect(await catchUp()).toEqual({ rewritten: 1, membershipChanged: false });
      const scans = await query<{ relname: string; seq: number; idx: number }>(
        "SELECT relname, seq_tup_read::int AS seq, idx_scan::int AS idx FROM pg_stat_xact_user_tables WHERE relname IN ('books', 'book_copies', 'browse_listing') ORDER BY relname",
      );
      // The transaction's own statistics: no row read by a scan of any of the three, each reached by an index.
      expect(scans.reduce((sum, row) => sum + row.seq, 0) - before).toBe(0);
      expect(scans.map((row) => row.relname)).toEqual(['book_copies', 'books', 'browse_listing']);
      for (const row of scans) expect(row.idx, row.relname).toBeGreaterThan(0);
    } finally {
      await query('ROLLBACK');
    }
  });
});

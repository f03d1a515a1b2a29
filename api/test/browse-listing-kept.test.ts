// browse_listing is a table kept from the copies that changed (migration browse_listing_kept_by_changes):
// triggers note each copy whose row may differ, and browse_listing_catch_up() rewrites those rows from
// browse_listing_source, the definition a rebuild would use. Held here against that definition after
// every kind of catalog write, through the shop's own checkout as well as by hand, with writers that
// commit while a catch-up runs (a book's change and its copy's on either side of one), and by what a
// catch-up of one copy reads.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from './helpers.ts';

// The app serves one checkout, and is closed after it: its sale schedules a catch-up of its own (15 s
// later), which would take the notes the tests here count. They call each catch-up themselves.
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
/** The copy a row of drift() is about: its first column. */
const copyOf = (row: string) => Number(/^\((\d+),/.exec(row)![1]);
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
    const [sold, priced, soldOut, withdrawn, moved, rated, recategorized, reauthored, redated, removed, backOnSale] = await freshCopies(11);
    // One taken off sale (and caught up) before, to be put back on it.
    await query('UPDATE book_copies SET is_available = false WHERE id = $1', [backOnSale!.id]);
    await catchUp();
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
    await t.app.close();
    // And every other write, by hand.
    await query('UPDATE book_copies SET price = price + 1.25 WHERE id = $1', [priced!.id]);
    await query('UPDATE book_copies SET quantity = 0 WHERE id = $1', [soldOut!.id]);
    await query('UPDATE book_copies SET is_available = false WHERE id = $1', [withdrawn!.id]);
    await query('UPDATE book_copies SET is_available = true WHERE id = $1', [backOnSale!.id]);
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
    const behind = new Set([...before.extra, ...before.missing].map(copyOf));
    for (const copy of [sold, priced, soldOut, withdrawn, moved, rated, recategorized, reauthored, redated, removed, added, backOnSale])
      expect(behind, `copy ${copy!.id}`).toContain(copy!.id);

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

  // A copy joins a book while the book's ratings move (a review) in a transaction that cannot see it
  // yet; a catch-up runs between the two commits, and reads the copy with the book's old ratings.
  const joins: [string, (copy: { id: number; bookId: number }, other: number) => Promise<number>][] = [
    [
      'put on sale',
      async (copy) => {
        await query('UPDATE book_copies SET is_available = true WHERE id = $1', [copy.id]);
        return copy.id;
      },
    ],
    [
      'moved to the book',
      async (copy, other) => {
        await query('UPDATE book_copies SET book_id = $2 WHERE id = $1', [other, copy.bookId]);
        return other;
      },
    ],
    [
      'added to the book',
      async (copy) =>
        (await one<{ id: number }>('INSERT INTO book_copies (book_id, price, quantity) VALUES ($1, 9.5, 2) RETURNING id', [copy.bookId]))
          .id,
    ],
  ];
  for (const [how, join] of joins)
    it(`a book's change and a copy ${how} meanwhile, committed on either side of a catch-up, are both caught up`, async () => {
      const [copy, other] = await freshCopies(2);
      await query('UPDATE book_copies SET is_available = false WHERE id = $1', [copy!.id]);
      await catchUp();
      const reviewer = new pg.Client({ connectionString: t.db.url });
      await reviewer.connect();
      try {
        await reviewer.query('BEGIN');
        await reviewer.query('UPDATE books SET ratings_sum = ratings_sum + 5, ratings_count = ratings_count + 1 WHERE id = $1', [
          copy!.bookId,
        ]);
        const joined = await join(copy!, other!.id);
        expect(await catchUp()).toMatchObject({ membershipChanged: true });
        // The copy as the book still is: right until the review commits.
        expect(await drift()).toEqual(IN_SYNC);
        await reviewer.query('COMMIT');
        expect((await drift()).extra.map(copyOf)).toContain(joined);
      } finally {
        await reviewer.end();
      }
      await catchUp();
      expect(await drift()).toEqual(IN_SYNC);
    });

  it('emptying the copies empties the listing, and the next catch-up says copies left', async () => {
    await catchUp();
    await query('BEGIN');
    try {
      await query('TRUNCATE book_copies CASCADE');
      expect(await one<{ n: number }>('SELECT count(*)::int AS n FROM browse_listing')).toEqual({ n: 0 });
      expect(await catchUp()).toEqual({ rewritten: 1, membershipChanged: true });
      expect(await drift()).toEqual(IN_SYNC);
    } finally {
      await query('ROLLBACK');
    }
  });

  it('takes at most the notes it is asked to, the oldest first, and says whether any are left', async () => {
    const copies = await freshCopies(5);
    await catchUp();
    for (const copy of copies) await query('UPDATE book_copies SET price = price + 0.5 WHERE id = $1', [copy.id]);
    const turn = () =>
      one<{ rewritten: number; more: boolean }>('SELECT rewritten::int AS rewritten, more FROM browse_listing_catch_up(2)');
    const behind = async () => (await drift()).extra.map(copyOf).sort();
    expect(await turn()).toEqual({ rewritten: 2, more: true });
    expect(await behind()).toEqual(
      copies
        .slice(2)
        .map((copy) => copy.id)
        .sort(),
    );
    expect(await turn()).toEqual({ rewritten: 2, more: true });
    expect(await turn()).toEqual({ rewritten: 1, more: false });
    expect(await drift()).toEqual(IN_SYNC);
  });

  it('a catch-up of one copy reads that copy by its keys, not the catalog', async () => {
    const [copy] = await freshCopies(1);
    await catchUp();
    await query('BEGIN');
    try {
      await query('UPDATE book_copies SET units_sold = units_sold + 1 WHERE id = $1', [copy!.id]);
      await query('UPDATE books SET ratings_count = ratings_count + 1, ratings_sum = ratings_sum + 4 WHERE id = $1', [copy!.bookId]);
      // The transaction's own statistics of the three tables, by name.
      const scans = async () =>
        Object.fromEntries(
          (
            await query<{ relname: string; seq: number; idx: number }>(
              "SELECT relname, seq_tup_read::int AS seq, idx_scan::int AS idx FROM pg_stat_xact_user_tables WHERE relname IN ('books', 'book_copies', 'browse_listing')",
            )
          ).map((row) => [row.relname, row]),
        );
      const before = await scans();
      expect(await catchUp()).toEqual({ rewritten: 1, membershipChanged: false });
      const after = await scans();
      // No row read by a scan of any of the three; each reached by an index (the copy noted, the book's copies, the books, the rows).
      for (const table of ['books', 'book_copies', 'browse_listing']) {
        expect(after[table]!.seq - before[table]!.seq, table).toBe(0);
        expect(after[table]!.idx - before[table]!.idx, table).toBeGreaterThan(0);
      }
    } finally {
      await query('ROLLBACK');
    }
  });
});

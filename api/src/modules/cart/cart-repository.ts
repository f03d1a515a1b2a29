import { ORDER_LINES_MAX } from '@bookshop/rules';
import type { Db, SqlWriter } from '../../plugins/prisma.ts';
import { copyLineSelect } from '../catalog/copy-line.ts';

// A shopper's changes are plain SQL on the primary, one prepared statement each, as checkout is:
// they are a tenth of a day's calls, and Prisma's query compiler cost more CPU than the statement
// itself (issue 32's mix). The cart page's read keeps Prisma's select, shared with the wishlist's.

/**
 * Adds one unit in a single statement: +1 to its line while the line stays within stock, or a new line
 * at 1 while the cart holds fewer than $3 lines (an order's most). No row back means the copy is
 * unknown/unavailable, the cart already holds all the stock, or it is full. Adds racing each other
 * may each see room for one more: the cart can pass $3 by at most the adds running at that moment,
 * and no further, where without the count it grew with the catalog.
 *
 * The line is raised by an UPDATE, and inserted only when it is not there: an INSERT ... ON CONFLICT
 * DO UPDATE takes the next id from the sequence every time, even when it updates or changes nothing,
 * so a loop of adds at a line's stock spent the int ids every client's new lines need.
 */
export const ADD_TO_CART_SQL = `
  WITH raised AS (
    UPDATE cart_items i SET quantity = i.quantity + 1
    FROM book_copies c
    WHERE i.client_id = $1 AND i.book_copy_id = $2 AND c.id = $2 AND c.is_available AND i.quantity < c.quantity
    RETURNING i.id
  ), added AS (
    INSERT INTO cart_items (client_id, book_copy_id, quantity)
    SELECT $1, c.id, 1 FROM book_copies c WHERE c.id = $2 AND c.is_available AND c.quantity >= 1
      AND NOT EXISTS (SELECT 1 FROM cart_items WHERE client_id = $1 AND book_copy_id = $2)
      AND (SELECT count(*) FROM cart_items WHERE client_id = $1) < $3
    -- Two first adds of one copy at once: the second adds nothing here, and is run again (addOne).
    ON CONFLICT (client_id, book_copy_id) DO NOTHING
    RETURNING id
  )
  SELECT id FROM raised UNION ALL SELECT id FROM added`;
const CART_FULL_SQL = `
  SELECT (SELECT count(*) FROM cart_items WHERE client_id = $1) >= $3
         AND NOT EXISTS (SELECT 1 FROM cart_items WHERE client_id = $1 AND book_copy_id = $2) AS full`;
const COPY_SQL = 'SELECT is_available AS "isAvailable", quantity FROM book_copies WHERE id = $1';
const LINE_SQL = `
  SELECT i.quantity, c.quantity AS "copyQuantity", c.price::text AS price
  FROM cart_items i JOIN book_copies c ON c.id = i.book_copy_id WHERE i.id = $1 AND i.client_id = $2`;
const SET_QUANTITY_SQL = 'UPDATE cart_items SET quantity = $3 WHERE id = $1 AND client_id = $2 RETURNING id';
/** $1 the line, $2 its client: a row back when it was theirs and is gone. */
export const REMOVE_CART_LINE_SQL = 'DELETE FROM cart_items WHERE id = $1 AND client_id = $2 RETURNING id';

export function cartRepository(db: Db, sql: SqlWriter) {
  return {
    list: (clientId: number) =>
      db.cartItem.findMany({
        where: { clientId },
        select: {
          id: true,
          quantity: true,
          createdAt: true,
          bookCopy: { select: copyLineSelect },
        },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      }),

    async addOne(clientId: number, bookCopyId: number): Promise<number | null> {
      const add = async () => (await sql.query<{ id: number }>(ADD_TO_CART_SQL, [clientId, bookCopyId, ORDER_LINES_MAX]))[0]?.id ?? null;
      // Nothing added may be a first add of the copy racing this one (its line committed meanwhile):
      // once more, this add raises that line. A refusal comes back the same, at no id's cost.
      return (await add()) ?? (await add());
    },

    /** Whether the cart already holds an order's most lines and not this copy's. */
    isFullFor: async (clientId: number, bookCopyId: number) =>
      (await sql.query<{ full: boolean }>(CART_FULL_SQL, [clientId, bookCopyId, ORDER_LINES_MAX]))[0]!.full,

    findCopy: async (id: number) => (await sql.query<{ isAvailable: boolean; quantity: number }>(COPY_SQL, [id]))[0] ?? null,

    /** The client's own line with its copy's stock and price; null when the line is not theirs. */
    findLine: async (clientId: number, id: number) =>
      (await sql.query<{ quantity: number; copyQuantity: number; price: string }>(LINE_SQL, [id, clientId]))[0] ?? null,

    /** False when the line is gone (a checkout or another tab took it since it was read). */
    setQuantity: async (clientId: number, id: number, quantity: number) =>
      (await sql.query(SET_QUANTITY_SQL, [id, clientId, quantity])).length === 1,

    remove: async (clientId: number, id: number) => (await sql.query(REMOVE_CART_LINE_SQL, [id, clientId])).length === 1,
  };
}

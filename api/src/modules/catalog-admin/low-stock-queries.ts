// The Low Stock report's statements as plain SQL (decision 14: the SQL of the paths the bench runs too lives in a
// *-queries.ts): run on the primary by low-stock.ts, and by the bench's bare baseline through the same lowStockPage.
import { WINDOW_START_SQL } from '../reports/sales-charts.ts';

/**
 * A page of the report ($1 the threshold, $2 how many of each range, $3 the page's size, $4 its offset).
 * Two ranges merged, never the whole list ranked: a catalog can hold hundreds of thousands of copies at
 * or below the threshold (ranking them all took 2 s at a million books). The last 30 days' sales of
 * those copies come from the days' index (sales_daily_copies, kept by triggers), and the copies without
 * any from the index on (quantity, id); each range gives its first pageNumber x pageSize in the
 * report's order, so the page lies among them. The sellers keep the stock they were joined with, and a
 * copy is told from them by a probe of its own sales: at a million books, joining every copy again for
 * its stock, and looking each unsold copy up in the sellers' list, took three quarters of the
 * statement's time.
 */
export const LOW_STOCK_PAGE_SQL = `
  WITH recent AS (
    SELECT s.book_copy_id AS id, c.quantity, sum(s.units)::int AS units
    FROM sales_daily_copies s JOIN book_copies c ON c.id = s.book_copy_id AND c.quantity <= $1
    WHERE s.day >= ${WINDOW_START_SQL}
    GROUP BY s.book_copy_id, c.quantity
  ), ranked AS (
    (SELECT r.id, r.units, r.quantity FROM recent r ORDER BY r.units DESC, r.quantity, r.id LIMIT $2)
    UNION ALL
    (SELECT c.id, 0, c.quantity FROM book_copies c
     WHERE c.quantity <= $1
       AND NOT EXISTS (SELECT 1 FROM sales_daily_copies s WHERE s.book_copy_id = c.id AND s.day >= ${WINDOW_START_SQL})
     ORDER BY c.quantity, c.id LIMIT $2)
  ), page AS (
    SELECT * FROM ranked ORDER BY units DESC, quantity, id LIMIT $3 OFFSET $4
  )
  SELECT c.id AS "copyId", c.book_id AS "bookId", b.name AS "bookName", a.full_name AS "authorName",
         c.quantity, c.price::text AS price, c.is_available AS "isAvailable", page.units AS "unitsSold30Days"
  FROM page
  JOIN book_copies c ON c.id = page.id
  JOIN books b ON b.id = c.book_id
  JOIN authors a ON a.id = b.author_id
  ORDER BY page.units DESC, page.quantity, page.id`;
/** How many copies the report holds in all ($1 the threshold): its page count. */
export const LOW_STOCK_COUNT_SQL = 'SELECT count(*)::int AS n FROM book_copies WHERE quantity <= $1';
export const LOW_STOCK_THRESHOLD_SQL = 'SELECT low_stock_threshold AS threshold FROM shop_settings WHERE id';

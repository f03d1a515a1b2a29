// The Low Stock report (beyond the spec): copies at or below the Admin's threshold, the fastest
// sellers of the last 30 days first, and a restock from the row. A restock is one atomic increment
// in an audited transaction that names its reason, so the audit log records it, the stock ledger
// says "restock", and the back-in-stock trigger (book_copies_back_in_stock) tells the clients who
// wish for the copy.
import { toMoney } from '../../lib/money.ts';
import { refuse } from '../../lib/refusals.ts';
import { nameStockReason } from '../../lib/stock-reason.ts';
import type { Db, SqlReader } from '../../plugins/prisma.ts';
import { STOCK_MAX } from '../../schemas/backoffice-catalog.ts';
import type { EmitCatalogEvent } from '../catalog/catalog-events.ts';
import { WINDOW_START_SQL } from '../reports/sales-charts.ts';
import { auditedTransaction } from '../security/audit.ts';

const DEFAULT_PAGE_SIZE = 25;

interface LowStockRow {
  copyId: number;
  bookId: number;
  bookName: string;
  authorName: string;
  quantity: number;
  price: string;
  isAvailable: boolean;
  unitsSold30Days: number;
}

/**
 * A page of the report ($1 the threshold, $2 how many of each range, $3 the page's size, $4 its offset).
 * Two ranges merged, never the whole list ranked: a catalog can hold hundreds of thousands of copies at
 * or below the threshold (ranking them all took 2 s at a million books). The last 30 days' sales of
 * those copies come from the days' index (sales_daily_copies, kept by triggers), and the copies without
 * any from the index on (quantity, id); each range gives its first pageNumber x pageSize in the
 * report's order, so the page lies among them. The sellers keep the stock they were joined with, and a
 * copy is told from them by a probe of its own sales: at a million books, joining every copy again for
 * its stock, and looking each unsold copy up in the sellers' list, took three quarters of the
 * statement's time. The bench's bare baseline runs these very statements (scripts/bench/bare-mix.ts).
 */
const LOW_STOCK_PAGE_SQL = `
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
const LOW_STOCK_COUNT_SQL = 'SELECT count(*)::int AS n FROM book_copies WHERE quantity <= $1';
const LOW_STOCK_THRESHOLD_SQL = 'SELECT low_stock_threshold AS threshold FROM shop_settings WHERE id';
const readThreshold = async (sql: SqlReader) => (await sql.query<{ threshold: number }>(LOW_STOCK_THRESHOLD_SQL))[0]!.threshold;

/** The report's page, read with plain SQL on the primary: the threshold, then the page and its count side by side. */
export async function lowStockPage(sql: SqlReader, pageNumber: number, pageSize: number) {
  const limit = await readThreshold(sql);
  // On two of the pool's connections: each takes tens of milliseconds at a million books, and the
  // report is a staff call, not a shopper's.
  const [rows, [counted]] = await Promise.all([
    sql.query<LowStockRow>(LOW_STOCK_PAGE_SQL, [limit, pageNumber * pageSize, pageSize, (pageNumber - 1) * pageSize]),
    sql.query<{ n: number }>(LOW_STOCK_COUNT_SQL, [limit]),
  ]);
  const totalCopies = counted!.n;
  return {
    threshold: limit,
    copies: rows.map(({ price, ...row }) => ({ ...row, price: toMoney(price) })),
    totalCopies,
    totalPages: Math.ceil(totalCopies / pageSize),
  };
}

export function lowStock(db: Db, sql: SqlReader, emit: EmitCatalogEvent) {
  return {
    setThreshold: async (value: number) =>
      (await db.shopSettings.update({ where: { id: true }, data: { lowStockThreshold: value }, select: { lowStockThreshold: true } }))
        .lowStockThreshold,

    page: (pageNumber = 1, pageSize = DEFAULT_PAGE_SIZE) => lowStockPage(sql, pageNumber, pageSize),

    /** Adds units to a copy's stock, up to the most a copy may hold; answers the new stock. */
    async restock(copyId: number, add: number) {
      const { count: restocked } = await auditedTransaction(db, async (tx) => {
        await nameStockReason(tx, 'restock');
        return tx.bookCopy.updateMany({
          where: { id: copyId, quantity: { lte: STOCK_MAX - add } },
          data: { quantity: { increment: add } },
        });
      });
      if (restocked) emit({ type: 'copy.restocked', copyId });
      const copy = await db.bookCopy.findUnique({ where: { id: copyId }, select: { quantity: true } });
      if (!copy) throw refuse.noCopy();
      if (!restocked) throw refuse.form(`A copy can hold at most ${STOCK_MAX.toLocaleString('en-US')} units in stock.`);
      return copy.quantity;
    },
  };
}

export type LowStock = ReturnType<typeof lowStock>;

// The Low Stock report (beyond the spec): copies at or below the Admin's threshold, the fastest
// sellers of the last 30 days first, and a restock from the row. A restock is one atomic increment
// in an audited transaction that names its reason, so the audit log records it, the stock ledger
// says "restock", and the back-in-stock trigger (book_copies_back_in_stock) tells the clients who
// wish for the copy.
import { toMoney } from '../../lib/money.ts';
import { refuse } from '../../lib/refusals.ts';
import { nameStockReason } from '../../lib/stock-reason.ts';
import type { Db } from '../../plugins/prisma.ts';
import { STOCK_MAX } from '../../schemas/backoffice-catalog.ts';
import type { EmitCatalogEvent } from '../catalog/catalog-events.ts';
import { WINDOW_START } from '../reports/sales-charts.ts';
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
  totalCopies: number;
}

export function lowStock(db: Db, emit: EmitCatalogEvent) {
  const threshold = async () =>
    (await db.shopSettings.findUniqueOrThrow({ where: { id: true }, select: { lowStockThreshold: true } })).lowStockThreshold;

  const count = (limit: number) => db.bookCopy.count({ where: { quantity: { lte: limit } } });

  return {
    threshold,
    setThreshold: async (value: number) =>
      (await db.shopSettings.update({ where: { id: true }, data: { lowStockThreshold: value }, select: { lowStockThreshold: true } }))
        .lowStockThreshold,

    async page(pageNumber = 1, pageSize = DEFAULT_PAGE_SIZE) {
      const limit = await threshold();
      // Sales are summed only for the copies on the list (the index on quantity finds them), from
      // their daily counts (sales_daily_copies, kept by triggers), so the work follows the short list.
      const rows = await db.$queryRaw<LowStockRow[]>`
        WITH low AS (SELECT id, book_id, quantity, price, is_available FROM book_copies WHERE quantity <= ${limit}),
        recent AS (
          SELECT s.book_copy_id, sum(s.units)::int AS units
          FROM sales_daily_copies s
          WHERE s.book_copy_id IN (SELECT id FROM low) AND s.day >= ${WINDOW_START}
          GROUP BY s.book_copy_id
        )
        SELECT low.id AS "copyId", low.book_id AS "bookId", b.name AS "bookName", a.full_name AS "authorName",
               low.quantity, low.price::text AS price, low.is_available AS "isAvailable",
               coalesce(r.units, 0) AS "unitsSold30Days", count(*) OVER ()::int AS "totalCopies"
        FROM low
        JOIN books b ON b.id = low.book_id
        JOIN authors a ON a.id = b.author_id
        LEFT JOIN recent r ON r.book_copy_id = low.id
        ORDER BY "unitsSold30Days" DESC, low.quantity ASC, low.id ASC
        LIMIT ${pageSize} OFFSET ${(pageNumber - 1) * pageSize}`;
      const totalCopies = rows[0]?.totalCopies ?? (pageNumber > 1 ? await count(limit) : 0);
      return {
        threshold: limit,
        copies: rows.map(({ totalCopies: _total, price, ...row }) => ({ ...row, price: toMoney(price) })),
        totalCopies,
        totalPages: Math.ceil(totalCopies / pageSize),
      };
    },

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

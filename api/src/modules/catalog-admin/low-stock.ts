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
import { auditedTransaction } from '../security/audit.ts';
import { LOW_STOCK_COUNT_SQL, LOW_STOCK_PAGE_SQL, LOW_STOCK_THRESHOLD_SQL } from './low-stock-queries.ts';

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

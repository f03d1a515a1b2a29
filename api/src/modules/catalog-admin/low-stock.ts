// The Low Stock report (beyond the spec): copies at or below the Admin's threshold, the fastest
// sellers of the last 30 days first, and a restock from the row. A restock is one atomic increment
// in an audited transaction that names its reason, so the audit log records it, the stock ledger
// says "restock" (with the request's key, when it sent one), and the back-in-stock trigger
// (book_copies_back_in_stock) tells the clients who wish for the copy.

import { STOCK_MAX } from '@bookshop/rules';
import { toMoney } from '../../lib/money.ts';
import { refuse } from '../../lib/refusals.ts';
import { nameStockReason } from '../../lib/stock-reason.ts';
import type { Db, SqlReader } from '../../plugins/prisma.ts';
import type { EmitCatalogEvent } from '../catalog/catalog-events.ts';
import { auditedTransaction } from '../security/audit.ts';
import { LOW_STOCK_COUNT_SQL, LOW_STOCK_PAGE_SQL, LOW_STOCK_THRESHOLD_SQL } from './low-stock-queries.ts';

const DEFAULT_PAGE_SIZE = 25;
/**
 * With the hash of a restock's key, the transaction-level advisory lock that runs its tries one at a
 * time: the two-key form, a space apart from the single-key locks (the import's, the retention's)
 * that a key chosen to hash onto one could otherwise hold.
 */
const RESTOCK_KEY_LOCK = 16_019;

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

/**
 * The report's page, read with plain SQL on the primary: the threshold, then the page and its count,
 * side by side for the first page (on two of the pool's connections: each takes tens of milliseconds
 * at a million books, and the report is a staff call, not a shopper's). A later page waits for the
 * count and is read only when it holds copies: the page's statement ranks all the copies before it, so
 * a page far past the end ranked every low copy of the catalog, as often as anyone asked.
 */
export async function lowStockPage(sql: SqlReader, pageNumber: number, pageSize: number) {
  const limit = await readThreshold(sql);
  const offset = (pageNumber - 1) * pageSize;
  const readPage = () => sql.query<LowStockRow>(LOW_STOCK_PAGE_SQL, [limit, pageNumber * pageSize, pageSize, offset]);
  const counting = sql.query<{ n: number }>(LOW_STOCK_COUNT_SQL, [limit]).then(([counted]) => counted!.n);
  const [rows, totalCopies] =
    pageNumber === 1
      ? await Promise.all([readPage(), counting])
      : await counting.then(async (n) => [n > offset ? await readPage() : [], n] as const);
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

    /**
     * Adds units to a copy's stock, up to the most a copy may hold; answers the new stock. With a
     * request key (Idempotency-Key), the same restock sent again (a retry after a timeout whose first
     * try was done) adds nothing more and answers the stock now: the key is the ledger row's reference,
     * `restock:<key>`, unique among restocks.
     */
    async restock(copyId: number, add: number, requestKey?: string) {
      const reference = requestKey === undefined ? '' : `restock:${requestKey}`;
      const outcome = await auditedTransaction(db, async (tx) => {
        if (reference) {
          // One try of a key at a time: a retry sent while the first is still running waits for
          // it, then finds its row.
          await tx.$executeRaw`SELECT pg_advisory_xact_lock(${RESTOCK_KEY_LOCK}::int, hashtext(${reference}))`;
          const [earlier] = await tx.$queryRaw<{ copyId: number; change: number }[]>`
            SELECT copy_id AS "copyId", change FROM stock_movements WHERE reason = 'restock' AND reference = ${reference}`;
          if (earlier) return earlier.copyId === copyId && earlier.change === add ? 'done before' : 'key reused';
        }
        await nameStockReason(tx, 'restock', reference);
        const { count } = await tx.bookCopy.updateMany({
          where: { id: copyId, quantity: { lte: STOCK_MAX - add } },
          data: { quantity: { increment: add } },
        });
        return count ? 'restocked' : 'refused';
      });
      if (outcome === 'key reused') throw refuse.idempotencyKeyReused('restock');
      if (outcome === 'restocked') emit({ type: 'copy.restocked', copyId });
      const copy = await db.bookCopy.findUnique({ where: { id: copyId }, select: { quantity: true } });
      if (!copy) throw refuse.noCopy();
      if (outcome === 'refused') throw refuse.form(`A copy can hold at most ${STOCK_MAX.toLocaleString('en-US')} units in stock.`);
      return copy.quantity;
    },
  };
}

export type LowStock = ReturnType<typeof lowStock>;

// The dashboard's reads (spec 6.1): the shop's four counts, the latest orders and the newest clients.
import type { Db, SqlReader } from '../../plugins/prisma.ts';
import { clientSelect } from '../people/people-repository.ts';

/**
 * The four counts in one statement and one snapshot (Prisma's transaction of four counts took six round trips).
 * The orders are summed from sales_daily, whose rows (a day and a status each) triggers keep with every order's
 * insert, change and delete in the same transaction: the same number as counting the orders, in a read of a few
 * hundred rows a year instead of every order (50-60 ms at a million).
 */
export const DASHBOARD_TOTALS_SQL = `
  SELECT (SELECT coalesce(sum(orders), 0) FROM sales_daily)::float8 AS "totalOrders", (SELECT count(*) FROM books)::float8 AS "totalBooks",
         (SELECT count(*) FROM book_copies)::float8 AS "totalBooksCopies", (SELECT count(*) FROM clients)::float8 AS "totalClients"`;

export function dashboardRepository(db: Db, sql: SqlReader) {
  return {
    totals: async () =>
      (
        await sql.query<{ totalOrders: number; totalBooks: number; totalBooksCopies: number; totalClients: number }>(DASHBOARD_TOTALS_SQL)
      )[0]!,
    recentOrders: (take: number) =>
      db.order.findMany({
        select: { id: true, clientId: true, totalQuantity: true, totalPrice: true, status: true, createdAt: true },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take,
      }),
    newClients: (take: number) => db.client.findMany({ select: clientSelect, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take }),
  };
}

export type DashboardRepository = ReturnType<typeof dashboardRepository>;

// The dashboard's reads (spec 6.1): the shop's four counts, the latest orders and the newest clients.
import type { Db, SqlReader } from '../../plugins/prisma.ts';
import { clientSelect } from '../people/people-repository.ts';

/**
 * The four counts in one statement and one snapshot (Prisma's transaction of four counts took six round trips).
 * Each is kept by triggers in the same transaction as the rows it counts, and read in a few rows instead of
 * counting them (at a million: 50-60 ms for the orders, 60 ms each for the books and the copies): the
 * orders are summed from sales_daily (a day and a status a row), the books and copies from catalog_totals
 * (a row per statement that added or removed some, folded hourly).
 */
export const DASHBOARD_TOTALS_SQL = `
  SELECT (SELECT coalesce(sum(orders), 0) FROM sales_daily)::float8 AS "totalOrders",
         totals.books::float8 AS "totalBooks", totals.copies::float8 AS "totalBooksCopies",
         (SELECT count(*) FROM clients)::float8 AS "totalClients"
  FROM (SELECT coalesce(sum(books), 0) AS books, coalesce(sum(book_copies), 0) AS copies FROM catalog_totals) totals`;

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

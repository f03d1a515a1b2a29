// The dashboard's charts (beyond the spec): each one a single SQL statement over the daily
// aggregates that triggers keep with every order write (the sales_daily migration), so a month of
// charts reads a few hundred rows however long the order history grows.
import { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../plugins/prisma.ts';
import { CHART_DAYS } from '../../schemas/staff.ts';

/** The oldest charted day (UTC); orders are stored in UTC. As text for plain SQL, and as Prisma's fragment. */
export const WINDOW_START_SQL = `((now() AT TIME ZONE 'UTC')::date - ${CHART_DAYS - 1})`;
export const WINDOW_START = Prisma.raw(WINDOW_START_SQL);

export function salesCharts(db: Db) {
  return {
    /** Orders and revenue for each of the last 30 days, cancelled and failed ones left out; days without orders as zeros. */
    dailySales: () =>
      db.$queryRaw<{ day: string; orders: number; revenue: number }[]>`
        WITH sales AS (
          SELECT day, sum(orders)::int AS orders, sum(revenue) AS revenue
          FROM sales_daily
          WHERE day >= ${WINDOW_START} AND order_is_sold(status)
          GROUP BY day
        )
        SELECT to_char(d.day, 'YYYY-MM-DD') AS day, coalesce(s.orders, 0) AS orders, coalesce(s.revenue, 0)::float8 AS revenue
        FROM generate_series(${WINDOW_START}, (now() AT TIME ZONE 'UTC')::date, interval '1 day') AS d(day)
        LEFT JOIN sales s ON s.day = d.day::date
        ORDER BY d.day`,

    /** Units sold per category in the last 30 days, most first; categories that sold nothing are left out. */
    categoryUnits: () =>
      db.$queryRaw<{ category: string; units: number }[]>`
        SELECT t.name AS category, sum(s.units)::int AS units
        FROM sales_daily_categories s JOIN book_types t ON t.id = s.type_id
        WHERE s.day >= ${WINDOW_START}
        GROUP BY t.name
        HAVING sum(s.units) > 0
        ORDER BY units DESC, t.name`,

    /** Orders of the last 30 days by status, cancelled and failed ones included, most first. */
    statusMix: () =>
      db.$queryRaw<{ status: string; orders: number }[]>`
        SELECT initcap(status) AS status, sum(orders)::int AS orders
        FROM sales_daily
        WHERE day >= ${WINDOW_START}
        GROUP BY 1
        HAVING sum(orders) > 0
        ORDER BY orders DESC, status`,
  };
}

export type SalesCharts = ReturnType<typeof salesCharts>;

// The dashboard's charts (beyond the spec): each one aggregated in one SQL statement over the last
// 30 days of orders, reached through the index on orders.created_at, so the work follows the
// month's orders and not the whole history.
import { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../plugins/prisma.ts';
import { CHART_DAYS } from '../../schemas/staff.ts';

/** The first instant of the oldest charted day (UTC); orders are stored in UTC. */
const windowStart = Prisma.sql`((now() AT TIME ZONE 'UTC')::date - ${CHART_DAYS - 1}::int)`;
/** Cancelled and failed orders sold nothing (statuses: the orders_status_known CHECK). */
export const SOLD = Prisma.sql`o.status NOT IN ('cancelled', 'failed')`;

export function salesCharts(db: Db) {
  return {
    /** Orders and revenue for each of the last 30 days, days without orders included as zeros. */
    dailySales: () =>
      db.$queryRaw<{ day: string; orders: number; revenue: number }[]>`
        WITH sales AS (
          SELECT o.created_at::date AS day, count(*)::int AS orders, sum(o.total_price) AS revenue
          FROM orders o
          WHERE o.created_at >= ${windowStart} AND ${SOLD}
          GROUP BY 1
        )
        SELECT to_char(d.day, 'YYYY-MM-DD') AS day, coalesce(s.orders, 0) AS orders, coalesce(s.revenue, 0)::float8 AS revenue
        FROM generate_series(${windowStart}, (now() AT TIME ZONE 'UTC')::date, interval '1 day') AS d(day)
        LEFT JOIN sales s ON s.day = d.day::date
        ORDER BY d.day`,

    /** Units sold per category in the last 30 days, most first; categories that sold nothing are left out. */
    categoryUnits: () =>
      db.$queryRaw<{ category: string; units: number }[]>`
        SELECT t.name AS category, sum(oi.quantity)::int AS units
        FROM orders o
        JOIN order_items oi ON oi.order_id = o.id
        JOIN book_copies c ON c.id = oi.book_copy_id
        JOIN books b ON b.id = c.book_id
        JOIN book_types t ON t.id = b.type_id
        WHERE o.created_at >= ${windowStart} AND ${SOLD}
        GROUP BY t.name
        ORDER BY units DESC, t.name`,

    /** Orders of the last 30 days by status, cancelled and failed ones included, most first. */
    statusMix: () =>
      db.$queryRaw<{ status: string; orders: number }[]>`
        SELECT initcap(o.status) AS status, count(*)::int AS orders
        FROM orders o
        WHERE o.created_at >= ${windowStart}
        GROUP BY 1
        ORDER BY orders DESC, status`,
  };
}

export type SalesCharts = ReturnType<typeof salesCharts>;

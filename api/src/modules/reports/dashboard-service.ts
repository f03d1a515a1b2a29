import { toMoney } from '../../lib/money.ts';
import type { DashboardRepository } from './dashboard-repository.ts';

export const DASHBOARD_LIST_SIZE = 10;

/** The dashboard (spec 6.1): the four totals, the latest orders and the newest clients. */
export function dashboardService(repo: DashboardRepository) {
  return {
    summary: () => repo.totals(),
    recentOrders: async () => (await repo.recentOrders(DASHBOARD_LIST_SIZE)).map((o) => ({ ...o, totalPrice: toMoney(o.totalPrice) })),
    newClients: () => repo.newClients(DASHBOARD_LIST_SIZE),
  };
}

export type DashboardService = ReturnType<typeof dashboardService>;

// The dashboard's reads (spec 6.1): the shop's four counts, the latest orders and the newest clients.
import type { Db } from '../../plugins/prisma.ts';
import { clientSelect } from '../people/people-repository.ts';

export function dashboardRepository(db: Db) {
  return {
    totals: () => db.$transaction([db.order.count(), db.book.count(), db.bookCopy.count(), db.client.count()]),
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

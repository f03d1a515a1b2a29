// The dashboard (spec 5): the summary cards, the recent orders and the new clients, read together.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, withSession } from '../../../api/client';
import { backofficeKeys } from './query-keys';

export const dashboardQuery = queryOptions({
  queryKey: backofficeKeys.dashboard.all,
  queryFn: async () => {
    const [summary, orders, clients] = await Promise.all([
      withSession('Employee', () => api.GET('/api/employee/statistics')),
      withSession('Employee', () => api.GET('/api/employee/statistics/resent-orders/')),
      withSession('Employee', () => api.GET('/api/employee/statistics/new-clients/')),
    ]);
    return { summary, orders, clients };
  },
});

export const useDashboard = () => useQuery(dashboardQuery);

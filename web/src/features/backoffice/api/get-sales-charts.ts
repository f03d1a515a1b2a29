// The dashboard's three charts (beyond the spec): one call each, so each chart shows as soon as its
// own numbers arrive. Sellers read them too.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, withSession } from '../../../api/client';
import { backofficeKeys } from './query-keys';

export const dailySalesQuery = queryOptions({
  queryKey: backofficeKeys.charts.detail('daily-sales'),
  queryFn: () => withSession('Employee', () => api.GET('/api/employee/statistics/charts/daily-sales')),
});
export const categoryUnitsQuery = queryOptions({
  queryKey: backofficeKeys.charts.detail('category-units'),
  queryFn: () => withSession('Employee', () => api.GET('/api/employee/statistics/charts/category-units')),
});
export const statusMixQuery = queryOptions({
  queryKey: backofficeKeys.charts.detail('status-mix'),
  queryFn: () => withSession('Employee', () => api.GET('/api/employee/statistics/charts/status-mix')),
});

export const useDailySales = () => useQuery(dailySalesQuery);
export const useCategoryUnits = () => useQuery(categoryUnitsQuery);
export const useStatusMix = () => useQuery(statusMixQuery);

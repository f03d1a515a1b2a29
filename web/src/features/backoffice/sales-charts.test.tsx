// The dashboard's charts: each one's numbers are in a table a screen reader can reach.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it } from 'vitest';
import { renderWithProviders, SIGNED_IN_SELLER, stubApi } from '../../../test/render';
import SalesCharts from './sales-charts';

it('puts the numbers behind each chart in a table, and says when a chart has nothing to show', async () => {
  stubApi({
    ...SIGNED_IN_SELLER,
    'GET /api/employee/statistics/charts/daily-sales': {
      body: {
        data: [
          { day: '2026-11-22', orders: 2, revenue: 30.5 },
          { day: '2026-11-23', orders: 0, revenue: 0 },
        ],
      },
    },
    'GET /api/employee/statistics/charts/category-units': { body: { data: [] } },
    'GET /api/employee/statistics/charts/status-mix': { body: { data: [{ status: 'Shipped', orders: 2 }] } },
  });
  renderWithProviders(<SalesCharts />, { route: '/dashboard' });
  await userEvent.click(await screen.findByText('The numbers behind “Revenue and orders per day, last 30 days”'));
  const daily = screen.getByRole('table', { name: 'Revenue and orders per day, last 30 days' });
  expect(
    within(daily)
      .getAllByRole('row')
      .map((r) => r.textContent),
  ).toEqual(['DayOrdersRevenue', '2026-11-222$30.50', '2026-11-230$0.00']);
  expect(screen.getByText('Nothing sold in the last 30 days.')).toBeInTheDocument();
  const mix = screen.getByRole('table', { name: 'Orders by status, last 30 days' });
  expect(within(mix).getByRole('row', { name: 'Shipped 2' })).toBeInTheDocument();
});

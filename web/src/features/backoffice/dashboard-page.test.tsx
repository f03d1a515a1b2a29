// The dashboard (spec 5): the spec's failure text with the shop's reason and a Retry, and a shop with
// no orders yet says so under Recent Orders rather than showing headings over nothing.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it } from 'vitest';
import { refusal, renderWithProviders, SIGNED_IN_ADMIN, stubApi } from '../../../test/render';
import DashboardPage from './dashboard-page';

const summary = { body: { data: { totalOrders: 0, totalBooks: 12, totalBooksCopies: 30, totalClients: 0 } } };
const none = { body: { data: [] } };
const charts = {
  'GET /api/employee/statistics/charts/daily-sales': none,
  'GET /api/employee/statistics/charts/category-units': none,
  'GET /api/employee/statistics/charts/status-mix': none,
};

it("says 'Failed to load data.' with the shop's reason, and loads the figures on Retry", async () => {
  stubApi({
    ...SIGNED_IN_ADMIN,
    ...charts,
    'GET /api/employee/statistics': [refusal(503, 'DATABASE_UNAVAILABLE', 'The shop is briefly unavailable.'), summary],
    'GET /api/employee/statistics/resent-orders/': none,
    'GET /api/employee/statistics/new-clients/': none,
  });
  renderWithProviders(<DashboardPage />, { route: '/dashboard' });
  expect(await screen.findByRole('alert')).toHaveTextContent(/^Failed to load data\.$/);
  expect(screen.getByText('The shop is briefly unavailable.')).toBeInTheDocument();
  await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
  expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
  expect(screen.getByText('No orders found.')).toBeInTheDocument();
  expect(screen.getByText('No clients found.')).toBeInTheDocument();
  expect(screen.queryByRole('columnheader', { name: 'Order ID' })).not.toBeInTheDocument();
});

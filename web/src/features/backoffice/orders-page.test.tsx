// A status change says how it went even when the refetch it starts moves the order off the page.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it } from 'vitest';
import { renderWithProviders, SIGNED_OUT, stubApi } from '../../../test/render';
import OrdersPage from './orders-page';

const order = (id: number, status = 'Pending') => ({
  id,
  createdAt: '2026-11-23T10:00:00.000Z',
  status,
  totalQuantity: 1,
  totalPrice: 12.5,
  shipmentAddress: '12 Rue Didouche Mourad, Algiers',
  clientId: 3,
  items: [],
});

it('a Seller who marks an order Shipped is told so, though a newer order pushed it off the first page', async () => {
  stubApi({
    ...SIGNED_OUT,
    'GET /api/employee/order/1,5': [
      { body: { data: { orders: [order(7)], totalPages: 1 } } },
      // A newer order (and four more) arrived meanwhile: order 7 is now on page 2.
      { body: { data: { orders: [order(12), order(11), order(10), order(9), order(8)], totalPages: 2 } } },
    ],
    'PUT /api/employee/order/set-status/7,Shipped': { body: { data: order(7, 'Shipped') } },
  });
  renderWithProviders(<OrdersPage />, { route: '/orders' });
  const card = await screen.findByRole('article', { name: 'Order 7' });
  await userEvent.click(within(card).getByRole('button', { name: 'Mark as Shipped' }));
  await screen.findByRole('article', { name: 'Order 12' });
  expect(screen.queryByRole('article', { name: 'Order 7' })).not.toBeInTheDocument();
  expect(screen.getByRole('status')).toHaveTextContent('Status updated successfully.');
});

// The back-office Orders screen: Cancel Order asks for the reason, and sends it.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it } from 'vitest';
import { renderWithProviders, SIGNED_IN_SELLER, stubApi } from '../../../test/render';
import OrdersPage from './orders-page';

const order = (id: number, status: string) => ({
  id,
  createdAt: '2026-11-25T10:00:00.000Z',
  status,
  totalQuantity: 1,
  totalPrice: 12.5,
  shipmentAddress: '12 Rue Didouche Mourad, Algiers',
  clientId: 3,
  items: [],
});

it('a Seller cancels an unshipped order: the reason is required, then sent; a shipped order has no Cancel', async () => {
  const calls = stubApi({
    ...SIGNED_IN_SELLER,
    'GET /api/employee/order/1,5': [
      { body: { data: { orders: [order(8, 'pending'), order(7, 'Shipped')], totalPages: 1 } } },
      { body: { data: { orders: [order(8, 'cancelled'), order(7, 'Shipped')], totalPages: 1 } } },
    ],
    'POST /api/employee/order/8/cancel': { body: { data: order(8, 'cancelled') } },
  });
  renderWithProviders(<OrdersPage />, { route: '/orders' });
  const card = await screen.findByRole('article', { name: 'Order 8' });
  expect(within(screen.getByRole('article', { name: 'Order 7' })).queryByRole('button', { name: 'Cancel Order' })).not.toBeInTheDocument();
  // The spec's two buttons stay.
  expect(within(card).getByRole('button', { name: 'Mark as Processing' })).toBeInTheDocument();
  expect(within(card).getByRole('button', { name: 'Mark as Shipped' })).toBeInTheDocument();

  await userEvent.click(within(card).getByRole('button', { name: 'Cancel Order' }));
  const dialog = screen.getByRole('dialog', { name: 'Cancel order 8' });
  await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel order' }));
  expect(within(dialog).getByRole('alert')).toHaveTextContent('Please give the reason for cancelling this order.');
  expect(within(dialog).getByLabelText('Reason')).toHaveAttribute('aria-invalid', 'true');
  expect(calls.filter((c) => c.url.endsWith('/cancel'))).toEqual([]);

  await userEvent.type(within(dialog).getByLabelText('Reason'), 'Out of print at the distributor');
  await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel order' }));
  expect(await within(card).findByRole('status')).toHaveTextContent('Order cancelled; its stock is back.');
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  expect(calls.find((c) => c.url.endsWith('/cancel'))?.body).toEqual({ reason: 'Out of print at the distributor' });
  expect(await within(card).findByText('cancelled')).toBeInTheDocument();
  expect(within(card).queryByRole('button', { name: 'Cancel Order' })).not.toBeInTheDocument();
});

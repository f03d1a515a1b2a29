// A status change says how it went even when the refetch it starts moves the order off the page; Cancel Order
// (beyond the spec) asks for the reason, and sends it.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it } from 'vitest';
import { findStatusSaying, heldAnswer, renderWithProviders, SIGNED_IN_SELLER, SIGNED_OUT, stubApi } from '../../../test/render';
import OrdersPage from './orders-page';

/** An order as the API sends it; `cancellable` is the API's word (false for one that shipped and was set back). */
const order = (id: number, status = 'Pending', cancellable = status === 'pending' || status === 'Processing') => ({
  id,
  createdAt: '2026-11-23T10:00:00.000Z',
  status,
  cancellable,
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
  expect(await findStatusSaying('Status updated successfully.')).toBeInTheDocument();
});

it('a Seller whose list is out of date is refused a status change, told why, and shown the status the order has', async () => {
  const calls = stubApi({
    ...SIGNED_IN_SELLER,
    'GET /api/employee/order/1,5': [
      { body: { data: { orders: [order(7, 'pending')], totalPages: 1 } } },
      // Another employee shipped it meanwhile.
      { body: { data: { orders: [order(7, 'Shipped')], totalPages: 1 } } },
    ],
    'PUT /api/employee/order/set-status/7,Processing': {
      status: 409,
      body: {
        data: null,
        error: {
          code: 'ORDER_STATUS_CHANGED',
          message: "This order's status changed to Shipped meanwhile: look at it again before changing it.",
        },
      },
    },
  });
  renderWithProviders(<OrdersPage />, { route: '/orders' });
  const card = await screen.findByRole('article', { name: 'Order 7' });
  await userEvent.click(within(card).getByRole('button', { name: 'Mark as Processing' }));
  expect(await screen.findByRole('alert')).toHaveTextContent("This order's status changed to Shipped meanwhile");
  expect(await within(card).findByText('Shipped')).toBeInTheDocument();
  expect(calls.find((c) => c.url.includes('set-status'))?.search).toBe('?from=pending');
});

it("a Seller's second change before the page is back starts from the status the first set, not the one still shown", async () => {
  const { held, release } = heldAnswer();
  const calls = stubApi({
    ...SIGNED_IN_SELLER,
    'GET /api/employee/order/1,5': [
      { body: { data: { orders: [order(7, 'pending')], totalPages: 1 } } },
      // The page after each change, slow to come back.
      { body: { data: { orders: [order(7, 'Shipped')], totalPages: 1 } }, after: held },
    ],
    'PUT /api/employee/order/set-status/7,Processing': { body: { data: 'Processing' } },
    'PUT /api/employee/order/set-status/7,Shipped': { body: { data: 'Shipped' } },
  });
  renderWithProviders(<OrdersPage />, { route: '/orders' });
  const card = await screen.findByRole('article', { name: 'Order 7' });
  await userEvent.click(within(card).getByRole('button', { name: 'Mark as Processing' }));
  await within(card).findByText('Status updated successfully.');
  await userEvent.click(within(card).getByRole('button', { name: 'Mark as Shipped' }));
  release();
  expect(await within(card).findByText('Shipped')).toBeInTheDocument();
  expect(calls.filter((c) => c.url.includes('set-status')).map((c) => `${c.url}${c.search}`)).toEqual([
    '/api/employee/order/set-status/7,Processing?from=pending',
    '/api/employee/order/set-status/7,Shipped?from=Processing',
  ]);
});

it('a Seller cancels an unshipped order: the reason is required, then sent; a shipped order has no Cancel', async () => {
  const shippedThenSetBack = order(6, 'Processing', false);
  const calls = stubApi({
    ...SIGNED_IN_SELLER,
    'GET /api/employee/order/1,5': [
      { body: { data: { orders: [order(8, 'pending'), order(7, 'Shipped'), shippedThenSetBack], totalPages: 1 } } },
      { body: { data: { orders: [order(8, 'cancelled'), order(7, 'Shipped'), shippedThenSetBack], totalPages: 1 } } },
    ],
    'POST /api/employee/order/8/cancel': { body: { data: order(8, 'cancelled') } },
  });
  renderWithProviders(<OrdersPage />, { route: '/orders' });
  const card = await screen.findByRole('article', { name: 'Order 8' });
  for (const shipped of ['Order 7', 'Order 6'])
    expect(within(screen.getByRole('article', { name: shipped })).queryByRole('button', { name: 'Cancel Order' })).not.toBeInTheDocument();
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
  expect(await findStatusSaying('Order cancelled; its stock is back.', within(card))).toBeInTheDocument();
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  const sent = calls.find((c) => c.url.endsWith('/cancel'));
  expect(sent?.body).toEqual({ reason: 'Out of print at the distributor' });
  // With the status the card showed: an order moved on meanwhile is not cancelled unseen.
  expect(sent?.search).toBe('?from=pending');
  expect(await within(card).findByText('cancelled')).toBeInTheDocument();
  expect(within(card).queryByRole('button', { name: 'Cancel Order' })).not.toBeInTheDocument();
});

it('a cancelled or failed order keeps its status: its two buttons are off, and the card says why', async () => {
  const calls = stubApi({
    ...SIGNED_IN_SELLER,
    'GET /api/employee/order/1,5': { body: { data: { orders: [order(9, 'failed'), order(8, 'cancelled'), order(7)], totalPages: 1 } } },
  });
  renderWithProviders(<OrdersPage />, { route: '/orders' });
  for (const [name, status] of [
    ['Order 9', 'failed'],
    ['Order 8', 'cancelled'],
  ]) {
    const card = await screen.findByRole('article', { name });
    for (const button of ['Mark as Processing', 'Mark as Shipped']) {
      expect(within(card).getByRole('button', { name: button })).toBeDisabled();
      expect(within(card).getByRole('button', { name: button })).toHaveAccessibleDescription(
        `This order is ${status} and holds no stock, so its status can no longer change.`,
      );
    }
  }
  expect(within(screen.getByRole('article', { name: 'Order 7' })).getByRole('button', { name: 'Mark as Shipped' })).toBeEnabled();
  expect(calls.filter((c) => c.url.includes('set-status'))).toEqual([]);
});

it('a list that cannot be loaded says so and offers Retry, never "No orders found."', async () => {
  stubApi({
    ...SIGNED_IN_SELLER,
    'GET /api/employee/order/1,5': [
      { status: 503, body: { message: 'The shop is busy: please try again in a moment.' } },
      { body: { data: { orders: [order(9)], totalPages: 1 } } },
    ],
  });
  renderWithProviders(<OrdersPage />, { route: '/orders' });
  const failure = await screen.findByRole('alert');
  expect(failure).toHaveTextContent('Could not load the orders.');
  expect(screen.queryByText('No orders found.')).not.toBeInTheDocument();
  await userEvent.click(within(failure).getByRole('button', { name: 'Retry' }));
  expect(await screen.findByRole('article', { name: 'Order 9' })).toBeInTheDocument();
});

// My Orders: an order the API says can still be cancelled has a Cancel button that asks first; only the yes cancels.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { findStatusSaying, refusal, renderWithProviders, SIGNED_IN_CLIENT, stubApi } from '../../../test/render';
import MyOrdersPage from './my-orders-page';

const ordersUrl = 'GET /api/client/orders/1,5';
/** An order as the API sends it; `cancellable` is the API's word (false for one that shipped and was set back). */
const order = (id: number, status: string, cancellable = status === 'pending' || status === 'Processing') => ({
  id,
  createdAt: '2026-11-25T10:00:00Z',
  status,
  cancellable,
  totalQuantity: 2,
  totalPrice: 25,
  shipmentAddress: `${id} Main St`,
});
const page = (...orders: ReturnType<typeof order>[]) => ({ body: { data: { orders, totalPages: 1 } } });
const rowOf = (id: number) => screen.getByRole('cell', { name: `${id} Main St` }).closest('tr') as HTMLElement;

describe('cancelling from My Orders', () => {
  it('offers Cancel only before shipping; Keep order changes nothing; Yes cancels and the row shows cancelled', async () => {
    const calls = stubApi({
      ...SIGNED_IN_CLIENT,
      [ordersUrl]: [
        page(order(43, 'pending'), order(42, 'Processing'), order(41, 'Shipped'), order(40, 'Processing', false)),
        page(order(43, 'cancelled'), order(42, 'Processing'), order(41, 'Shipped'), order(40, 'Processing', false)),
      ],
      'POST /api/client/orders/43/cancel': { body: { data: order(43, 'cancelled') } },
    });
    renderWithProviders(
      <main tabIndex={-1}>
        <MyOrdersPage />
      </main>,
      { route: '/orders' },
    );
    await screen.findByRole('cell', { name: '43 Main St' });
    expect(within(rowOf(42)).getByRole('button', { name: 'Cancel order 42' })).toBeInTheDocument();
    expect(within(rowOf(41)).queryByRole('button', { name: /Cancel/ })).not.toBeInTheDocument();
    // Shipped, then set back to Processing by staff: its books have left, so no Cancel either.
    expect(within(rowOf(40)).queryByRole('button', { name: /Cancel/ })).not.toBeInTheDocument();

    await userEvent.click(within(rowOf(43)).getByRole('button', { name: 'Cancel order 43' }));
    const dialog = screen.getByRole('dialog', { name: 'Cancel order 43' });
    expect(within(dialog).getByRole('heading', { name: 'Cancel order #43?' })).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Keep order' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST' && c.url.endsWith('/cancel'))).toEqual([]);

    await userEvent.click(within(rowOf(43)).getByRole('button', { name: 'Cancel order 43' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Yes, cancel order' }));
    expect(await findStatusSaying('Order #43 was cancelled.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(within(rowOf(43)).getByText('cancelled')).toBeInTheDocument();
    expect(within(rowOf(43)).queryByRole('button')).not.toBeInTheDocument();
    // Its Cancel button is gone: the focus goes to the screen, not to the document's start.
    expect(screen.getByRole('main')).toHaveFocus();
    expect(calls.filter((c) => c.url === '/api/client/orders/43/cancel')).toHaveLength(1);
  });

  it("a refusal (it shipped meanwhile) says the server's reason, and the row shows the status it has now", async () => {
    stubApi({
      ...SIGNED_IN_CLIENT,
      [ordersUrl]: [page(order(44, 'Processing')), page(order(44, 'Shipped'))],
      'POST /api/client/orders/44/cancel': refusal(409, 'ORDER_NOT_CANCELLABLE', 'This order is Shipped and can no longer be cancelled.'),
    });
    renderWithProviders(<MyOrdersPage />, { route: '/orders' });
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel order 44' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Yes, cancel order' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Order #44 could not be cancelled.');
    expect(alert).toHaveTextContent('This order is Shipped and can no longer be cancelled.');
    expect(within(rowOf(44)).getByText('Shipped')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel order 44' })).not.toBeInTheDocument();
  });
});

// My Orders tells a failed load from an empty answer.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { refusal, renderWithProviders, SIGNED_IN_CLIENT, stubApi } from '../../../test/render';
import MyOrdersPage from './my-orders-page';

const ordersUrl = 'GET /api/client/orders/1,5';
const outage = refusal(503, 'DATABASE_UNAVAILABLE', 'The shop is briefly unavailable.');

describe('My Orders', () => {
  it('says the orders could not be loaded, with the reason, and loads them on Retry', async () => {
    stubApi({ ...SIGNED_IN_CLIENT, [ordersUrl]: outage });
    renderWithProviders(<MyOrdersPage />, { route: '/orders' });
    expect(await screen.findByText('Could not load your orders.')).toBeInTheDocument();
    expect(screen.getByText('The shop is briefly unavailable.')).toBeInTheDocument();
    expect(screen.queryByText('No orders found.')).not.toBeInTheDocument();

    const order = {
      id: 41,
      createdAt: '2026-11-01T10:00:00Z',
      status: 'Pending',
      cancellable: false,
      totalQuantity: 2,
      totalPrice: 25,
      shipmentAddress: '1 Main St',
    };
    stubApi({ ...SIGNED_IN_CLIENT, [ordersUrl]: { body: { data: { orders: [order], totalPages: 1 } } } });
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('cell', { name: '1 Main St' })).toBeInTheDocument();
  });

  it("says 'No orders found.' only when the answer is empty", async () => {
    stubApi({ ...SIGNED_IN_CLIENT, [ordersUrl]: { body: { data: { orders: [], totalPages: 0 } } } });
    renderWithProviders(<MyOrdersPage />, { route: '/orders' });
    expect(await screen.findByText('No orders found.')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

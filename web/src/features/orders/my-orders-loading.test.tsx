// My Orders tells a failed load from an empty answer.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Address, refusal, renderWithProviders, SIGNED_IN_CLIENT, stubApi } from '../../../test/render';
import MyOrdersPage from './my-orders-page';

const ordersUrl = 'GET /api/client/orders/1,5';
const outage = refusal(503, 'DATABASE_UNAVAILABLE', 'The shop is briefly unavailable.');

/** An order that can no longer be cancelled, as the API lists it. */
const shipped = {
  id: 41,
  createdAt: '2026-11-01T10:00:00Z',
  status: 'Shipped',
  cancellable: false,
  totalQuantity: 1,
  totalPrice: 9,
  shipmentAddress: '1 Main St',
};
/** My Orders opened at `route`, beside the router's address. */
const renderBesideAddress = (route: string) =>
  renderWithProviders(
    <>
      <MyOrdersPage />
      <Address withSearch />
    </>,
    { route },
  );

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

  it('keeps its page in the address, so a reload or Back returns to it', async () => {
    const orders = { orders: [shipped], totalPages: 3 };
    const calls = stubApi({
      ...SIGNED_IN_CLIENT,
      'GET /api/client/orders/2,5': { body: { data: orders } },
      'GET /api/client/orders/3,5': { body: { data: orders } },
    });
    renderBesideAddress('/orders?page=2');
    await userEvent.click(await screen.findByRole('button', { name: /Next/ }));
    expect(await screen.findByRole('status', { name: 'address' })).toHaveTextContent('/orders?page=3');
    expect(calls.map((c) => c.url).filter((url) => url.startsWith('/api/client/orders'))).toEqual([
      '/api/client/orders/2,5',
      '/api/client/orders/3,5',
    ]);
  });

  it('a page past the end (an old link) goes to the last page, not to "No orders found."', async () => {
    stubApi({
      ...SIGNED_IN_CLIENT,
      'GET /api/client/orders/9,5': { body: { data: { orders: [], totalPages: 2 } } },
      'GET /api/client/orders/2,5': { body: { data: { orders: [shipped], totalPages: 2 } } },
    });
    renderBesideAddress('/orders?page=9');
    expect(await screen.findByRole('cell', { name: '1 Main St' })).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'address' })).toHaveTextContent('/orders?page=2');
  });
});

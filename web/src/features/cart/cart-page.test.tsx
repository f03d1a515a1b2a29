import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithProviders, stubApi } from '../../../test/render';
import CartPage from './cart-page';

const signedIn = { 'POST /api/public/authentication/refresh-tokens/Client': { body: { data: 'Client' } } };
const line = (id: number, name: string, totalQuantity: number, bookCopyQuantity: number, totalPrice: number) => ({
  id,
  productId: id * 10,
  name,
  imageUrl: null,
  totalPrice,
  bookCopyQuantity,
  totalQuantity,
  createdAt: '2026-11-01T10:00:00.000Z',
});

describe('cart screen (spec 2.10)', () => {
  it("says 'Your cart is empty.' when it is", async () => {
    stubApi({ ...signedIn, 'GET /api/client/cart': { body: { data: [] } } });
    renderWithProviders(<CartPage />);
    expect(await screen.findByText('Your cart is empty.')).toBeInTheDocument();
  });

  it('disables minus at 1 and plus at the stock, and totals unit price times quantity', async () => {
    stubApi({
      ...signedIn,
      'GET /api/client/cart': { body: { data: [line(1, 'Dune Messiah', 1, 5, 9.99), line(2, 'Emma', 3, 3, 0.1)] } },
    });
    renderWithProviders(<CartPage />);
    const first = (await screen.findByText('Dune Messiah', { selector: 'strong' })).closest('li')!;
    const second = screen.getByText('Emma', { selector: 'strong' }).closest('li')!;
    expect(within(first).getByRole('button', { name: 'Decrease quantity' })).toBeDisabled();
    expect(within(first).getByRole('button', { name: 'Increase quantity' })).toBeEnabled();
    expect(within(second).getByRole('button', { name: 'Decrease quantity' })).toBeEnabled();
    expect(within(second).getByRole('button', { name: 'Increase quantity' })).toBeDisabled();
    expect(screen.getByText('$10.29')).toBeInTheDocument();
  });

  it('refuses a short shipping address with the spec message, pre-filled from the last one used', async () => {
    localStorage.setItem('ShippingAddress', 'abc');
    const calls = stubApi({ ...signedIn, 'GET /api/client/cart': { body: { data: [line(1, 'Dune Messiah', 2, 5, 9.99)] } } });
    renderWithProviders(<CartPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Proceed to Checkout' }));
    expect(screen.getByLabelText('Address')).toHaveValue('abc');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm Order' }));
    expect(screen.getByText('Please enter a valid shipping address.')).toBeInTheDocument();
    expect(calls.some((c) => c.url === '/api/client/orders')).toBe(false);
  });
});

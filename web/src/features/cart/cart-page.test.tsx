import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { heldAnswer, refusal, renderWithProviders, SIGNED_IN_CLIENT, stubApi, UNAUTHORIZED } from '../../../test/render';
import CartPage from './cart-page';

const line = (id: number, name: string, totalQuantity: number, bookCopyQuantity: number, totalPrice: number, isAvailable = true) => ({
  id,
  productId: id * 10,
  name,
  imageUrl: null,
  totalPrice,
  bookCopyQuantity,
  totalQuantity,
  isAvailable,
  createdAt: '2026-11-01T10:00:00.000Z',
});

describe('cart screen (spec 2.10)', () => {
  it("says 'Your cart is empty.' when it is", async () => {
    stubApi({ ...SIGNED_IN_CLIENT, 'GET /api/client/cart': { body: { data: [] } } });
    renderWithProviders(<CartPage />);
    expect(await screen.findByText('Your cart is empty.')).toBeInTheDocument();
  });

  it('refuses minus at 1 and plus at the stock, and totals unit price times quantity', async () => {
    const calls = stubApi({
      ...SIGNED_IN_CLIENT,
      'GET /api/client/cart': { body: { data: [line(1, 'Dune Messiah', 1, 5, 9.99), line(2, 'Emma', 3, 3, 0.1)] } },
    });
    renderWithProviders(<CartPage />);
    const first = (await screen.findByText('Dune Messiah', { selector: 'strong' })).closest('li')!;
    const second = screen.getByText('Emma', { selector: 'strong' }).closest('li')!;
    // Not pressable, yet focusable: the press that reached the end leaves the focus there.
    const minusAtOne = within(first).getByRole('button', { name: 'Decrease quantity' });
    expect(minusAtOne).toHaveAttribute('aria-disabled', 'true');
    expect(minusAtOne).not.toHaveAttribute('aria-busy');
    await userEvent.click(minusAtOne);
    expect(within(first).getByRole('button', { name: 'Increase quantity' })).not.toHaveAttribute('aria-disabled');
    expect(within(second).getByRole('button', { name: 'Decrease quantity' })).not.toHaveAttribute('aria-disabled');
    const plusAtStock = within(second).getByRole('button', { name: 'Increase quantity' });
    expect(plusAtStock).toHaveAttribute('aria-disabled', 'true');
    await userEvent.click(plusAtStock);
    expect(calls.filter((c) => c.method === 'PUT')).toEqual([]);
    expect(screen.getByText('$10.29')).toBeInTheDocument();
  });

  it("a line's quantity waits for its change before the next: two quick clicks on plus are never the same change twice", async () => {
    const { held: answered, release: answer } = heldAnswer();
    const calls = stubApi({
      ...SIGNED_IN_CLIENT,
      'GET /api/client/cart': [
        { body: { data: [line(1, 'Dune Messiah', 1, 5, 9.99)] } },
        { body: { data: [line(1, 'Dune Messiah', 2, 5, 9.99)] } },
      ],
      'PUT /api/client/cart': { body: { data: true }, after: answered },
    });
    renderWithProviders(<CartPage />);
    const row = (await screen.findByText('Dune Messiah', { selector: 'strong' })).closest('li')!;
    const plus = within(row).getByRole('button', { name: 'Increase quantity' });
    await userEvent.click(plus);
    await userEvent.click(plus);
    expect(plus).toHaveAttribute('aria-disabled', 'true');
    answer();
    expect(await within(row).findByText('2', { selector: 'output' })).toBeInTheDocument();
    await vi.waitFor(() => expect(plus).not.toHaveAttribute('aria-disabled'));
    expect(calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([{ cartItemId: 1, quantity: 2 }]);
  });

  it("another line's change does not free a line whose own change is still out", async () => {
    const { held: firstAnswered, release: answerFirst } = heldAnswer();
    const calls = stubApi({
      ...SIGNED_IN_CLIENT,
      'GET /api/client/cart': { body: { data: [line(1, 'Dune Messiah', 1, 5, 9.99), line(2, 'Emma', 1, 5, 4)] } },
      'PUT /api/client/cart': [{ body: { data: true }, after: firstAnswered }, { body: { data: true } }],
    });
    renderWithProviders(<CartPage />);
    const first = (await screen.findByText('Dune Messiah', { selector: 'strong' })).closest('li')!;
    const second = screen.getByText('Emma', { selector: 'strong' }).closest('li')!;
    const firstPlus = within(first).getByRole('button', { name: 'Increase quantity' });
    await userEvent.click(firstPlus);
    await userEvent.click(within(second).getByRole('button', { name: 'Increase quantity' }));
    await vi.waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(2));
    await vi.waitFor(() => expect(within(second).getByRole('button', { name: 'Increase quantity' })).not.toHaveAttribute('aria-disabled'));
    expect(firstPlus).toHaveAttribute('aria-disabled', 'true');
    answerFirst();
    await vi.waitFor(() => expect(firstPlus).not.toHaveAttribute('aria-disabled'));
  });

  it("a line's refused change is shown even when another line changed while it was out", async () => {
    const { held, release } = heldAnswer();
    const reason = 'Only 1 copy of Dune Messiah is left.';
    stubApi({
      ...SIGNED_IN_CLIENT,
      'GET /api/client/cart': { body: { data: [line(1, 'Dune Messiah', 1, 5, 9.99), line(2, 'Emma', 1, 5, 4)] } },
      'PUT /api/client/cart': [{ ...refusal(409, 'CONFLICT', reason), after: held }, { body: { data: true } }],
    });
    renderWithProviders(<CartPage />);
    const first = (await screen.findByText('Dune Messiah', { selector: 'strong' })).closest('li')!;
    const second = screen.getByText('Emma', { selector: 'strong' }).closest('li')!;
    await userEvent.click(within(first).getByRole('button', { name: 'Increase quantity' }));
    await userEvent.click(within(second).getByRole('button', { name: 'Increase quantity' }));
    release();
    expect(await screen.findByText(reason)).toBeInTheDocument();
  });

  it('refuses a short shipping address with the spec message, pre-filled from the last one used', async () => {
    localStorage.setItem('ShippingAddress', 'abc');
    const calls = stubApi({ ...SIGNED_IN_CLIENT, 'GET /api/client/cart': { body: { data: [line(1, 'Dune Messiah', 2, 5, 9.99)] } } });
    renderWithProviders(<CartPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Proceed to Checkout' }));
    expect(screen.getByLabelText('Address')).toHaveValue('abc');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm Order' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter a valid shipping address.');
    // The field is marked, described by why, and has the focus to be typed in again.
    const address = screen.getByLabelText('Address');
    expect(address).toBeInvalid();
    expect(address).toHaveAccessibleDescription('Please enter a valid shipping address.');
    expect(address).toHaveFocus();
    expect(calls.some((c) => c.url === '/api/client/orders')).toBe(false);
  });

  it('keeps the checkout dialog open while the order is out (Cancel, × and Escape do nothing), and then says how it went', async () => {
    const { held, release } = heldAnswer();
    stubApi({
      ...SIGNED_IN_CLIENT,
      'GET /api/client/cart': [{ body: { data: [line(1, 'Dune Messiah', 2, 5, 10)] } }, { body: { data: [] } }],
      'POST /api/client/orders': { body: { data: { id: 9 } }, after: held },
    });
    localStorage.setItem('ShippingAddress', '1 Main Street');
    renderWithProviders(<CartPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Proceed to Checkout' }));
    await userEvent.click(screen.getByRole('button', { name: 'Confirm Order' }));
    const dialog = screen.getByRole('dialog', { name: 'Shipping address' });
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Close' })).toBeDisabled();
    await userEvent.keyboard('{Escape}');
    dialog.dispatchEvent(new Event('cancel', { cancelable: true }));
    expect(screen.getByRole('dialog', { name: 'Shipping address' })).toBeInTheDocument();
    // Closed by the browser itself (a second Escape it no longer lets the page refuse): open again.
    dialog.removeAttribute('open');
    dialog.dispatchEvent(new Event('close'));
    expect(dialog).toHaveAttribute('open');
    release();
    expect(await screen.findByText('Order placed successfully!')).toBeInTheDocument();
  });

  it('lists a withdrawn copy as unavailable, leaves it out of the total and the order, and lets it be removed', async () => {
    const calls = stubApi({
      ...SIGNED_IN_CLIENT,
      'GET /api/client/cart': { body: { data: [line(1, 'Dune Messiah', 2, 5, 10), line(2, 'Emma', 1, 4, 7.5, false)] } },
      'POST /api/client/orders': { body: { data: { id: 9 } } },
      'DELETE /api/client/cart/2': { body: { data: true } },
    });
    localStorage.setItem('ShippingAddress', '1 Main Street');
    renderWithProviders(<CartPage />);
    const withdrawn = (await screen.findByText('Emma', { selector: 'strong' })).closest('li')!;
    expect(within(withdrawn).getByText('No longer available: remove it to check out the rest.')).toBeInTheDocument();
    expect(within(withdrawn).getByText('Not included')).toBeInTheDocument();
    expect(within(withdrawn).getByRole('button', { name: 'Increase quantity' })).toBeDisabled();
    expect(screen.getByText('Total:').querySelector('strong')).toHaveTextContent('$20.00');

    await userEvent.click(screen.getByRole('button', { name: 'Proceed to Checkout' }));
    await userEvent.click(screen.getByRole('button', { name: 'Confirm Order' }));
    const order = calls.find((c) => c.method === 'POST' && c.url === '/api/client/orders');
    expect(order?.body).toMatchObject({ cartItemsIds: [1], totalPrice: 20, totalQuantity: 2 });

    await userEvent.click(within(withdrawn).getByRole('button', { name: 'Remove Emma' }));
    expect(calls.some((c) => c.method === 'DELETE' && c.url === '/api/client/cart/2')).toBe(true);
  });

  it('a double click on Remove removes the line once, and shows no error for the second click', async () => {
    const { held, release } = heldAnswer();
    const calls = stubApi({
      ...SIGNED_IN_CLIENT,
      'GET /api/client/cart': [
        { body: { data: [line(1, 'Dune Messiah', 2, 5, 10), line(2, 'Emma', 1, 4, 7.5)] } },
        { body: { data: [line(1, 'Dune Messiah', 2, 5, 10)] } },
      ],
      // As the API answers a second removal of the same line.
      'DELETE /api/client/cart/2': [{ body: { data: true }, after: held }, refusal(404, 'NOT_FOUND', 'This item is not in your cart.')],
    });
    renderWithProviders(<CartPage />);
    const remove = await screen.findByRole('button', { name: 'Remove Emma' });
    await userEvent.dblClick(remove);
    release();
    await vi.waitFor(() => expect(screen.queryByText('Emma', { selector: 'strong' })).not.toBeInTheDocument());
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    // The Remove went with its line: the focus is on the cart's heading, and the removal is said.
    expect(await screen.findByText('Emma was removed from your cart.')).toHaveAttribute('role', 'status');
    expect(screen.getByRole('heading', { name: 'Cart' })).toHaveFocus();
  });

  it('says how many are left when the stock fell below the line, and lets the quantity come down', async () => {
    const calls = stubApi({
      ...SIGNED_IN_CLIENT,
      'GET /api/client/cart': { body: { data: [line(1, 'Dune Messiah', 5, 2, 10)] } },
      'PUT /api/client/cart': { body: { data: true } },
    });
    renderWithProviders(<CartPage />);
    const row = (await screen.findByText('Dune Messiah', { selector: 'strong' })).closest('li')!;
    expect(within(row).getByText('Only 2 left: lower the quantity to check out.')).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Increase quantity' })).toHaveAttribute('aria-disabled', 'true');
    await userEvent.click(within(row).getByRole('button', { name: 'Decrease quantity' }));
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ cartItemId: 1, quantity: 4 });
  });

  it('an ended session sends the shopper to login instead of showing an empty cart', async () => {
    // The start-up refresh works; the session then ends, so the refresh after the cart's 401 is refused.
    const calls = stubApi({
      ...SIGNED_IN_CLIENT,
      'POST /api/public/authentication/refresh-tokens/Client': [{ body: { data: 'Client' } }, UNAUTHORIZED],
      'GET /api/client/cart': UNAUTHORIZED,
    });
    renderWithProviders(
      <Routes>
        <Route path="/cart" element={<CartPage />} />
        <Route path="/login" element={<p>The login screen</p>} />
      </Routes>,
      { route: '/cart' },
    );
    expect(await screen.findByText('The login screen')).toBeInTheDocument();
    expect(screen.queryByText('Your cart is empty.')).not.toBeInTheDocument();
    expect(calls.filter((c) => c.url.endsWith('/refresh-tokens/Client'))).toHaveLength(2);
  });
});

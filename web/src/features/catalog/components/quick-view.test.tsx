import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { refusal, renderWithProviders, SIGNED_IN_CLIENT, SIGNED_OUT, stubApi } from '../../../../test/render';
import { QuickView } from './quick-view';

const book = (quantity: number) => ({
  id: 7,
  name: 'The Name of the Wind',
  imageUrl: null,
  author: 'Patrick Rothfuss',
  authorName: 'Patrick Rothfuss',
  category: 'Fantasy',
  price: 12.5,
  quantity,
  description: 'A story told by Kvothe.',
  averageRating: 4.554,
  ratingsCount: 512345,
});

describe('quick view', () => {
  it('shows rating with 1 decimal and its count, price with 2 decimals, and the stock', async () => {
    stubApi({ ...SIGNED_OUT, 'GET /api/public/book-copy/by-id/7': { body: { data: book(4) } } });
    renderWithProviders(<QuickView bookId={7} onClose={() => {}} />);
    expect(await screen.findByRole('heading', { name: 'The Name of the Wind' })).toBeInTheDocument();
    expect(screen.getByText(/4\.6/)).toBeInTheDocument();
    expect(screen.getByText('(512,345 ratings)')).toBeInTheDocument();
    expect(screen.getByText('$12.50')).toBeInTheDocument();
    expect(screen.getByText('4 available')).toBeInTheDocument();
  });

  it('says a book gone is not available, and a load that failed (an outage) why, with Retry', async () => {
    stubApi({ ...SIGNED_OUT, 'GET /api/public/book-copy/by-id/7': refusal(404, 'NOT_FOUND', 'This book is not available.') });
    const { unmount } = renderWithProviders(<QuickView bookId={7} onClose={() => {}} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('This book is not available.');
    unmount();
    stubApi({
      ...SIGNED_OUT,
      'GET /api/public/book-copy/by-id/7': [
        refusal(503, 'DATABASE_UNAVAILABLE', 'The shop is briefly unavailable.'),
        { body: { data: book(4) } },
      ],
    });
    renderWithProviders(<QuickView bookId={7} onClose={() => {}} />);
    expect(await screen.findByText('Could not load this book.')).toBeInTheDocument();
    expect(screen.getByText('The shop is briefly unavailable.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'The Name of the Wind' })).toBeInTheDocument();
  });

  it("says 'Out of Stock' and disables Add to Cart at quantity 0", async () => {
    stubApi({ ...SIGNED_OUT, 'GET /api/public/book-copy/by-id/7': { body: { data: book(0) } } });
    renderWithProviders(<QuickView bookId={7} onClose={() => {}} />);
    expect(await screen.findByText('Out of Stock')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add to Cart' })).toBeDisabled();
  });

  it('sends a signed-out visitor to /Login, and closes on the close button', async () => {
    stubApi({ ...SIGNED_OUT, 'GET /api/public/book-copy/by-id/7': { body: { data: book(3) } } });
    const onClose = vi.fn();
    renderWithProviders(
      <Routes>
        <Route path="/" element={<QuickView bookId={7} onClose={onClose} />} />
        <Route path="/login" element={<p>login screen</p>} />
      </Routes>,
    );
    const add = await screen.findByRole('button', { name: 'Add to Cart' });
    await vi.waitFor(() => expect(add).toBeEnabled());
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalled();
    await userEvent.click(add);
    expect(await screen.findByText('login screen')).toBeInTheDocument();
  });

  it("shows 'Failed to add to cart.' with the server's reason beneath it, as when the cart is full", async () => {
    const full = 'Your cart holds 200 different books, the most one order takes. Check out or remove one first.';
    stubApi({
      ...SIGNED_IN_CLIENT,
      'GET /api/public/book-copy/by-id/7': { body: { data: book(3) } },
      'GET /api/client/cart': { body: { data: [] } },
      'POST /api/client/cart/7': refusal(409, 'CART_FULL', full),
    });
    renderWithProviders(<QuickView bookId={7} onClose={() => {}} />);
    const add = await screen.findByRole('button', { name: 'Add to Cart' });
    await vi.waitFor(() => expect(add).toBeEnabled());
    await userEvent.click(add);
    expect(await screen.findByText('Failed to add to cart.')).toBeInTheDocument();
    expect(screen.getByText(full)).toBeInTheDocument();
  });
});

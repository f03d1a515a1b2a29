// A book's own address shows its detail screen, moves to the canonical address, and links to it.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it } from 'vitest';
import { refusal, renderRoute, SIGNED_OUT, stubApi } from '../../../../test/render';
import { paths } from '../../../lib/paths';
import BookPage from './book-page';

const detail = (id: number, name: string) => ({
  id,
  name,
  imageUrl: 'https://covers.example/1.jpg',
  author: 'Frank Herbert',
  authorName: 'Frank Herbert',
  authorId: 2,
  category: 'Fantasy',
  price: 9.99,
  quantity: 3,
  description: 'Spice.',
  averageRating: 4.2,
  ratingsCount: 10,
});
/** A book with no reviews yet. */
const noReviews = (id: number) => ({
  [`GET /api/public/book-copy/by-id/${id}/reviews`]: { body: { data: { reviews: [], totalReviews: 0, totalPages: 1 } } },
});
/** The calls of a signed-out visit to `book`'s page, a book with no reviews and nothing similar in its category. */
const visitAlone = (book: ReturnType<typeof detail>) => ({
  ...SIGNED_OUT,
  [`GET /api/public/book-copy/by-id/${book.id}`]: { body: { data: book } },
  ...noReviews(book.id),
  'GET /api/public/book-copy/by-type/Fantasy,1,15': { body: { data: { booksCopies: [], totalPages: 1 } } },
});
const card = ({ id, name, imageUrl, authorName, authorId, price, quantity }: ReturnType<typeof detail>) => ({
  id,
  name,
  imageUrl,
  authorName,
  authorId,
  price,
  quantity,
});

/** The book page at `route`, beside the router's address. */
const renderAt = (route: string) => renderRoute(paths.bookRoute, <BookPage />, route);

it('shows the book its address names, in a fresh browser with nothing stored', async () => {
  stubApi(visitAlone(detail(7, 'Dune')));
  renderAt('/books/7-dune');
  expect(await screen.findByRole('heading', { level: 1, name: 'Dune' })).toBeInTheDocument();
  expect(screen.getByText('3 available')).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'Link to this book' })).toHaveAttribute('href', '/books/7-dune');
  expect(screen.getByRole('link', { name: 'Frank Herbert' })).toHaveAttribute('href', '/authors/2-frank-herbert');
  expect(document.head.querySelector('link[rel="canonical"]')).toHaveAttribute('href', `${window.location.origin}/books/7-dune`);
  expect(screen.getByRole('status', { name: 'address' })).toHaveTextContent('/books/7-dune');
});

it('moves an outdated title or a bare id to the canonical address', async () => {
  stubApi(visitAlone(detail(7, 'Dune Messiah')));
  renderAt('/books/7-dune');
  expect(await screen.findByRole('heading', { level: 1, name: 'Dune Messiah' })).toBeInTheDocument();
  expect(screen.getByRole('status', { name: 'address' })).toHaveTextContent('/books/7-dune-messiah');
});

it('opens a similar book at its own address', async () => {
  const dune = detail(7, 'Dune');
  const children = detail(8, 'Children of Dune');
  stubApi({
    ...SIGNED_OUT,
    'GET /api/public/book-copy/by-id/7': { body: { data: dune } },
    'GET /api/public/book-copy/by-id/8': { body: { data: children } },
    ...noReviews(7),
    ...noReviews(8),
    'GET /api/public/book-copy/by-type/Fantasy,1,15': { body: { data: { booksCopies: [card(dune), card(children)], totalPages: 1 } } },
  });
  renderAt('/books/7-dune');
  const similar = await screen.findByRole('region', { name: 'Similar Books' });
  await userEvent.click(within(similar).getByRole('button', { name: /^Open Children of Dune/ }));
  expect(await screen.findByRole('heading', { level: 1, name: 'Children of Dune' })).toBeInTheDocument();
  expect(screen.getByRole('status', { name: 'address' })).toHaveTextContent('/books/8-children-of-dune');
});

it('says a book is not available when the address names none or the copy is not on sale', async () => {
  stubApi({
    ...SIGNED_OUT,
    'GET /api/public/book-copy/by-id/9': refusal(404, 'NOT_FOUND', 'This book is not available.'),
  });
  renderAt('/books/9-gone');
  expect(await screen.findByText('This book is not available.')).toBeInTheDocument();
});

it('a book the shop could not load (an outage) says so, with the reason, not that the book is gone; Retry shows it', async () => {
  const dune = detail(7, 'Dune');
  stubApi({
    ...visitAlone(dune),
    'GET /api/public/book-copy/by-id/7': [
      refusal(503, 'DATABASE_UNAVAILABLE', 'The shop is briefly unavailable.'),
      { body: { data: dune } },
    ],
  });
  renderAt('/books/7-dune');
  expect(await screen.findByText('Could not load this book.')).toBeInTheDocument();
  expect(screen.getByText('The shop is briefly unavailable.')).toBeInTheDocument();
  expect(screen.queryByText('This book is not available.')).not.toBeInTheDocument();
  await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
  expect(await screen.findByRole('heading', { level: 1, name: 'Dune' })).toBeInTheDocument();
});

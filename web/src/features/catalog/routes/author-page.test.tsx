// An author's page lists their books on sale with the ratings, pages them, and names the author
// at the one canonical address; a card's author name leads there.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it } from 'vitest';
import { refusal, renderRoute, SIGNED_OUT, stubApi } from '../../../../test/render';
import { paths } from '../../../lib/paths';
import AuthorPage from './author-page';

const book = (id: number, name: string, averageRating: number, ratingsCount: number) => ({
  id,
  name,
  imageUrl: 'https://covers.example/1.jpg',
  author: 'Ursula K. Le Guin',
  authorName: 'Ursula K. Le Guin',
  authorId: 4,
  category: 'Fantasy',
  price: 12,
  quantity: 2,
  description: '',
  averageRating,
  ratingsCount,
});
const page = (books: ReturnType<typeof book>[]) => ({
  body: { data: { id: 4, name: 'Ursula K. Le Guin', books, totalBooks: 16, totalPages: 2 } },
});

/** The author's page at `route`, beside the router's address. */
const renderAt = (route: string) => renderRoute(paths.authorRoute, <AuthorPage />, route);

it("lists the author's books with their ratings, a page at a time, at the canonical address", async () => {
  stubApi({
    ...SIGNED_OUT,
    'GET /api/public/authors/4': [page([book(1, 'A Wizard of Earthsea', 4.03, 1200)]), page([book(2, 'The Farthest Shore', 4.1, 300)])],
  });
  renderAt('/authors/4');
  expect(await screen.findByRole('heading', { level: 1, name: 'Ursula K. Le Guin' })).toBeInTheDocument();
  expect(screen.getByRole('status', { name: 'address' })).toHaveTextContent('/authors/4-ursula-k-le-guin');
  expect(screen.getByText('16 books on sale')).toBeInTheDocument();
  const grid = screen.getByRole('region', { name: 'Ursula K. Le Guin' });
  const card = within(grid).getByRole('article');
  expect(within(card).getByRole('heading', { name: 'A Wizard of Earthsea' })).toBeInTheDocument();
  expect(card).toHaveTextContent('4.0 (1,200 ratings)');
  expect(within(card).getByRole('link', { name: 'Ursula K. Le Guin' })).toHaveAttribute('href', '/authors/4-ursula-k-le-guin');

  await userEvent.click(screen.getByRole('button', { name: 'Next' }));
  expect(await screen.findByRole('heading', { name: 'The Farthest Shore' })).toBeInTheDocument();
  expect(screen.getByText('Page 2 of 2')).toBeInTheDocument();
});

it('says so when nothing of theirs is on sale, and when there is no such author', async () => {
  stubApi({
    ...SIGNED_OUT,
    'GET /api/public/authors/5': { body: { data: { id: 5, name: 'Nobody Yet', books: [], totalBooks: 0, totalPages: 1 } } },
  });
  renderAt('/authors/5-nobody-yet');
  expect(await screen.findByText('No books by this author are on sale right now.')).toBeInTheDocument();
  expect(screen.getByText('0 books on sale')).toBeInTheDocument();
});

it('says No author found. for an address that names none', async () => {
  stubApi({
    ...SIGNED_OUT,
    'GET /api/public/authors/6': refusal(404, 'NOT_FOUND', 'No author found.'),
  });
  renderAt('/authors/6-gone');
  expect(await screen.findByText('No author found.')).toBeInTheDocument();
});

it('opens at the page its address names (Back from a book, a reload), and moves a page past the end to the last', async () => {
  const calls = stubApi({ ...SIGNED_OUT, 'GET /api/public/authors/4': page([book(2, 'The Farthest Shore', 4.1, 300)]) });
  const view = renderAt('/authors/4-ursula-k-le-guin?page=2');
  expect(await screen.findByText('Page 2 of 2')).toBeInTheDocument();
  expect(calls.map((c) => new URLSearchParams(c.search).get('pageNumber') ?? c.search)).toContain('2');
  view.unmount();

  renderAt('/authors/4-ursula-k-le-guin?page=9');
  expect(await screen.findByText('Page 2 of 2')).toBeInTheDocument();
});

// The heart on a card (and what it says when refused), the bell in the top bar, and the Wishlist screen.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { expect, it } from 'vitest';
import { apiServer, findStatusSaying, refusal, renderWithProviders, SIGNED_IN_CLIENT, stubApi } from '../../../test/render';
import { NoticeBell } from './components/notice-bell';
import { WishlistHeart } from './components/wishlist-heart';
import WishlistPage from './wishlist-page';

const wished = (id: number, quantity: number) => ({
  id,
  name: 'Dune',
  imageUrl: 'https://covers.example/dune.jpg',
  authorName: 'Frank Herbert',
  authorId: 2,
  price: 9.99,
  quantity,
  available: true,
});

it('a heart is pressed for a wished-for copy, and a click takes it off the wishlist', async () => {
  const calls = stubApi({
    ...SIGNED_IN_CLIENT,
    'GET /api/client/wishlist': [{ body: { data: [wished(7, 0)] } }, { body: { data: [] } }],
    'DELETE /api/client/wishlist/7': { body: { data: true } },
  });
  renderWithProviders(<WishlistHeart bookCopyId={7} name="Dune" />);
  const heart = await screen.findByRole('button', { name: 'Wishlist: Dune', pressed: true });
  await userEvent.click(heart);
  expect(await screen.findByRole('button', { name: 'Wishlist: Dune', pressed: false })).toBeInTheDocument();
  expect(calls.some((c) => c.method === 'DELETE' && c.url === '/api/client/wishlist/7')).toBe(true);
});

it('a heart waits for the session to be known: a signed-in client is not sent to Login before it is', async () => {
  let refreshed = (_: unknown) => {};
  const calls = stubApi({
    ...SIGNED_IN_CLIENT,
    'POST /api/public/authentication/refresh-tokens/Client': { body: { data: 'Client' }, after: new Promise((done) => (refreshed = done)) },
    'GET /api/client/wishlist': [{ body: { data: [] } }, { body: { data: [wished(7, 5)] } }],
    'PUT /api/client/wishlist/7': { body: { data: true } },
  });
  renderWithProviders(<WishlistHeart bookCopyId={7} name="Dune" />, { route: '/Detail' });
  const heart = await screen.findByRole('button', { name: 'Wishlist: Dune' });
  expect(heart).toBeDisabled();
  refreshed(null);
  await waitFor(() => expect(heart).toBeEnabled());
  await userEvent.click(heart);
  await screen.findByRole('button', { name: 'Wishlist: Dune', pressed: true });
  expect(calls.some((c) => c.method === 'PUT' && c.url === '/api/client/wishlist/7')).toBe(true);
});

it('a heart refused (a full wishlist) says why, and stays as it was', async () => {
  const message = 'Your wishlist is full (200 books). Remove one to add another.';
  stubApi({
    ...SIGNED_IN_CLIENT,
    'GET /api/client/wishlist': { body: { data: [] } },
    'PUT /api/client/wishlist/7': refusal(409, 'CONFLICT', message),
  });
  renderWithProviders(<WishlistHeart bookCopyId={7} name="Dune" />);
  await userEvent.click(await screen.findByRole('button', { name: 'Wishlist: Dune', pressed: false }));
  const alert = await screen.findByRole('alert');
  expect(alert).toHaveTextContent('Could not add it to your wishlist.');
  expect(alert).toHaveTextContent(message);
  expect(screen.getByRole('button', { name: 'Wishlist: Dune', pressed: false })).toBeInTheDocument();
});

it('the bell counts unread notices, lists them with a link to the book, and closing it reads them', async () => {
  const notice = {
    id: 1,
    kind: 'back_in_stock',
    bookCopyId: 7,
    bookName: 'Dune',
    message: 'Dune is back in stock.',
    createdAt: '2026-11-23T10:00:00.000Z',
    read: false,
  };
  // Unread first, newest first, as the API lists them; an older one read already.
  const older = { ...notice, id: 3, bookCopyId: 8, bookName: 'Emma', message: 'Emma is back in stock.', read: true };
  const newest = { ...notice, id: 5 };
  const alsoUnread = { ...notice, id: 4, bookCopyId: 9, bookName: 'Ulysses', message: 'Ulysses is back in stock.' };
  const calls = stubApi({
    ...SIGNED_IN_CLIENT,
    'GET /api/client/notices': [
      { body: { data: { unread: 2, notices: [newest, alsoUnread, older] } } },
      { body: { data: { unread: 0, notices: [{ ...newest, read: true }, { ...alsoUnread, read: true }, older] } } },
    ],
    'POST /api/client/notices/read': { body: { data: true } },
  });
  renderWithProviders(<NoticeBell />);
  const bell = await screen.findByLabelText('Notices: 2 unread notices');
  await userEvent.click(bell);
  expect(screen.getByRole('link', { name: 'Dune is back in stock.' })).toHaveAttribute('href', '/books/7-dune');
  expect(calls.some((c) => c.url === '/api/client/notices/read')).toBe(false); // still marked while open
  await userEvent.click(bell);
  expect(await screen.findByLabelText('Notices: 0 unread notices')).toBeInTheDocument();
  // From the oldest unread it showed up to the newest: one written meanwhile, or one past the list, stays unread.
  expect(calls.filter((c) => c.url === '/api/client/notices/read').map((c) => c.search)).toEqual(['?upTo=5&from=4']);
});

it('the Wishlist screen says when a copy is out of stock, and when the list is empty', async () => {
  stubApi({ ...SIGNED_IN_CLIENT, 'GET /api/client/wishlist': { body: { data: [wished(7, 0), { ...wished(8, 3), name: 'Emma' }] } } });
  const view = renderWithProviders(<WishlistPage />, { route: '/wishlist' });
  expect(await screen.findByText('Out of Stock: we will tell you when it is back')).toBeInTheDocument();
  expect(screen.getByText('3 available')).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'Emma' })).toHaveAttribute('href', '/books/8-emma');
  view.unmount();

  stubApi({ ...SIGNED_IN_CLIENT, 'GET /api/client/wishlist': { body: { data: [] } } });
  renderWithProviders(<WishlistPage />, { route: '/wishlist' });
  expect(await screen.findByText('Your wishlist is empty. Tap the heart on a book to keep it here.')).toBeInTheDocument();
});

it('a book taken off on the Wishlist screen leaves it, says so, and leaves the focus on the heading', async () => {
  // The list as the server has it: both books until Emma's heart is pressed.
  let taken = false;
  stubApi({ ...SIGNED_IN_CLIENT });
  apiServer.use(
    http.get('*/api/client/wishlist', () =>
      HttpResponse.json({ data: taken ? [wished(7, 0)] : [wished(7, 0), { ...wished(8, 3), name: 'Emma' }] }),
    ),
    http.delete('*/api/client/wishlist/8', () => {
      taken = true;
      return HttpResponse.json({ data: true });
    }),
  );
  renderWithProviders(<WishlistPage />, { route: '/wishlist' });
  await userEvent.click(await screen.findByRole('button', { name: 'Wishlist: Emma' }));
  expect(await findStatusSaying('Emma was taken off your wishlist.')).toBeInTheDocument();
  expect(screen.queryByRole('link', { name: 'Emma' })).not.toBeInTheDocument();
  expect(screen.getByRole('heading', { name: 'Wishlist' })).toHaveFocus();
});

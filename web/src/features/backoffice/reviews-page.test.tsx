// The Admin's reviews: Show sends the words' time as the list read them, and a review its writer
// changed since is refused and read again, so no words go live that the Admin has not seen.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it } from 'vitest';
import { renderWithProviders, SIGNED_IN_ADMIN, stubApi } from '../../../test/render';
import ReviewsPage from './reviews-page';

const review = (text: string, updatedAt: string) => ({
  id: 7,
  bookId: 3,
  bookName: 'The Hobbit',
  clientId: 12,
  reviewer: 'Rita Q.',
  stars: 4,
  review: text,
  updatedAt,
  hidden: true,
});
const page = (r: ReturnType<typeof review>) => ({ body: { data: { reviews: [r], totalPages: 1 } } });

it('shows a hidden review only as read: one rewritten since is refused with the reason, and the list shows the new words', async () => {
  const read = review('Fine.', '2026-12-01T08:00:00.000Z');
  const rewritten = review('Buy followers at spam.example', '2026-12-01T08:05:00.000Z');
  const calls = stubApi({
    ...SIGNED_IN_ADMIN,
    'GET /api/employee/review/1,10': [page(read), page(rewritten)],
    'PUT /api/employee/review/7': {
      status: 412,
      body: {
        data: null,
        error: { code: 'STALE_VERSION', message: 'The reviewer changed this review since you loaded it. Read it again before showing it.' },
      },
    },
  });
  renderWithProviders(<ReviewsPage />, { route: '/reviews' });
  await userEvent.click(await screen.findByRole('button', { name: 'Show review 7' }));

  expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ hidden: false, updatedAt: '2026-12-01T08:00:00.000Z' });
  const alert = await screen.findByRole('alert');
  expect(alert).toHaveTextContent('The review could not be changed.');
  expect(alert).toHaveTextContent('The reviewer changed this review since you loaded it. Read it again before showing it.');
  expect(await screen.findByRole('cell', { name: 'Buy followers at spam.example' })).toBeInTheDocument();
});

it('sends one change for a double click on Hide, and takes clicks again once it is answered', async () => {
  const shown = { ...review('Fine.', '2026-12-01T08:00:00.000Z'), hidden: false };
  let answer = (_: unknown) => {};
  const calls = stubApi({
    ...SIGNED_IN_ADMIN,
    'GET /api/employee/review/1,10': page(shown),
    'PUT /api/employee/review/7': { body: { data: 'Review hidden.' }, after: new Promise((done) => (answer = done)) },
  });
  renderWithProviders(<ReviewsPage />, { route: '/reviews' });
  const hide = await screen.findByRole('button', { name: 'Hide review 7' });
  await userEvent.dblClick(hide);
  expect(hide).toHaveAttribute('aria-disabled', 'true');
  answer(null);
  expect(await screen.findByText('Review hidden.')).toBeInTheDocument();
  expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1);
  expect(hide).not.toHaveAttribute('aria-disabled');
});

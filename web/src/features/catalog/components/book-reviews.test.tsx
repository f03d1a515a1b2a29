// Under a book: its buyers' reviews, and a signed-in buyer's own rating to write or change.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it, vi } from 'vitest';
import { findStatusSaying, renderWithProviders, SIGNED_IN_CLIENT, SIGNED_OUT, stubApi } from '../../../../test/render';
import { BookReviews } from './book-reviews';

const page = (reviews: object[], totalPages = 1) => ({ body: { data: { reviews, totalReviews: reviews.length, totalPages } } });
const review = { id: 1, stars: 4, review: 'A slow start, then gripping.', reviewer: 'Amel Q.', updatedAt: '2026-11-20T10:00:00.000Z' };

it('shows a visitor the reviews with their stars, and no form', async () => {
  stubApi({ ...SIGNED_OUT, 'GET /api/public/book-copy/by-id/7/reviews': page([review]) });
  renderWithProviders(<BookReviews copyId={7} />);
  const item = await screen.findByRole('listitem');
  expect(within(item).getByRole('img', { name: '4 out of 5 stars' })).toBeInTheDocument();
  expect(item).toHaveTextContent('Amel Q.');
  expect(item).toHaveTextContent('A slow start, then gripping.');
  expect(screen.queryByRole('group', { name: /Rate this book|Your rating/ })).not.toBeInTheDocument();
});

it("keeps a reviewer's name from reordering the date beside it (a name written with direction controls)", async () => {
  const reversing = { ...review, reviewer: '\u202EAmel Q.' };
  stubApi({ ...SIGNED_OUT, 'GET /api/public/book-copy/by-id/7/reviews': page([reversing]) });
  renderWithProviders(<BookReviews copyId={7} />);
  const item = await screen.findByRole('listitem');
  // A bidi isolate: the override ends with the name, where an inline element would carry it on to the date.
  expect(within(item).getByText('\u202EAmel Q.').tagName).toBe('BDI');
});

it('tells a client who has not received the book when they can rate it; a book without reviews says so', async () => {
  stubApi({
    ...SIGNED_IN_CLIENT,
    'GET /api/public/book-copy/by-id/7/reviews': page([]),
    'GET /api/client/reviews/7': { body: { data: { canReview: false, stars: 0, review: '', hidden: false, reviewer: 'Rita Q.' } } },
  });
  renderWithProviders(<BookReviews copyId={7} />);
  expect(await screen.findByText('You can rate this book once an order of it has shipped.')).toBeInTheDocument();
  expect(screen.getByText('No reviews yet.')).toBeInTheDocument();
});

it('lets a buyer rate the book, then shows the list again with their review', async () => {
  const mine = { id: 2, stars: 5, review: 'Loved it.', reviewer: 'Rita Q.', updatedAt: '2026-11-23T10:00:00.000Z' };
  const calls = stubApi({
    ...SIGNED_IN_CLIENT,
    'GET /api/public/book-copy/by-id/7/reviews': [page([review]), page([mine, review])],
    'GET /api/client/reviews/7': { body: { data: { canReview: true, stars: 0, review: '', hidden: false, reviewer: 'Rita Q.' } } },
    'PUT /api/client/reviews/7': { body: { data: { canReview: true, stars: 5, review: 'Loved it.', hidden: false, reviewer: 'Rita Q.' } } },
    'GET /api/public/book-copy/by-id/7': { body: { data: {} } },
  });
  renderWithProviders(<BookReviews copyId={7} />);
  const form = await screen.findByRole('group', { name: 'Rate this book' });
  expect(screen.getByRole('button', { name: 'Save rating' })).toBeDisabled();
  expect(screen.getByLabelText('Your review (optional)')).toHaveAccessibleDescription(
    'Rita Q. is the name other shoppers see on your rating and review.',
  );
  await userEvent.click(within(form).getByRole('radio', { name: '5 stars' }));
  await userEvent.type(screen.getByLabelText('Your review (optional)'), 'Loved it.');
  await userEvent.click(screen.getByRole('button', { name: 'Save rating' }));
  expect(await findStatusSaying('Thank you! Your rating is saved.')).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Update rating' })).toBeDisabled();
  expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ stars: 5, review: 'Loved it.' });
  expect(await screen.findAllByRole('listitem')).toHaveLength(2);
});

it('a review without stars is refused with the radios marked, and the focus on the first', async () => {
  const calls = stubApi({
    ...SIGNED_IN_CLIENT,
    'GET /api/public/book-copy/by-id/7/reviews': page([review]),
    'GET /api/client/reviews/7': { body: { data: { canReview: true, stars: 0, review: '', hidden: false, reviewer: 'Rita Q.' } } },
  });
  renderWithProviders(<BookReviews copyId={7} />);
  const form = await screen.findByRole('group', { name: 'Rate this book' });
  await userEvent.type(screen.getByLabelText('Your review (optional)'), 'Loved it.');
  await userEvent.click(screen.getByRole('button', { name: 'Save rating' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('Please choose from 1 to 5 stars.');
  const radios = within(form).getAllByRole('radio');
  for (const radio of radios) {
    expect(radio).toBeInvalid();
    expect(radio).toHaveAccessibleDescription('Please choose from 1 to 5 stars.');
  }
  expect(radios[0]).toHaveFocus();
  expect(screen.getByLabelText('Your review (optional)')).toBeValid();
  expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  await userEvent.click(within(form).getByRole('radio', { name: '4 stars' }));
  await vi.waitFor(() => {
    for (const radio of radios) expect(radio).toBeValid();
  });
});

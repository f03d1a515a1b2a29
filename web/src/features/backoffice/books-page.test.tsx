// A book's delete says which version of the book it read: one another employee changed meanwhile is
// refused, and the table shows it as it is now.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it, vi } from 'vitest';
import { refusal, renderWithProviders, SIGNED_OUT, stubApi } from '../../../test/render';
import { expectDeleteRefusedAsStale } from '../../../test/stale-delete';
import BooksPage from './books-page';

afterEach(() => vi.restoreAllMocks());

const book = (name: string, version: number) => ({ id: 3, name, pagesNumber: 200, authorId: 4, typeId: 1, publishedAt: null, version });

it('an Admin deleting a book someone renamed since the table showed it is refused, told why, and shown the book as it is', async () => {
  vi.spyOn(window, 'confirm').mockReturnValue(true);
  const reason = 'Someone else changed this book since you opened it. Look at it again before deleting it.';
  const calls = stubApi({
    ...SIGNED_OUT,
    'GET /api/employee/book/1,10': [
      { body: { data: { books: [book('Earthsea', 1)], totalPages: 1 } } },
      { body: { data: { books: [book('A Wizard of Earthsea', 2)], totalPages: 1 } } },
    ],
    'DELETE /api/employee/book/3': refusal(412, 'STALE_VERSION', reason, { current: book('A Wizard of Earthsea', 2) }),
  });
  renderWithProviders(<BooksPage />, { route: '/books' });
  await expectDeleteRefusedAsStale(calls, { failure: 'Failed to delete book.', reason, ifMatch: '"1"' });
  expect(await screen.findByText('A Wizard of Earthsea')).toBeInTheDocument();
});

it('Add Book with no ISBN is refused with the field marked, told why and focused, until it is typed in; nothing is sent', async () => {
  const calls = stubApi({ ...SIGNED_OUT, 'GET /api/employee/book/1,10': { body: { data: { books: [], totalPages: 1 } } } });
  renderWithProviders(<BooksPage />, { route: '/books' });
  await userEvent.click(screen.getByRole('button', { name: 'Add Book' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('All fields are required.');
  const isbn = screen.getByLabelText('ISBN');
  expect(isbn).toBeInvalid();
  expect(isbn).toHaveAccessibleDescription('All fields are required.');
  expect(isbn).toHaveFocus();
  await userEvent.type(isbn, '9780547928227');
  expect(isbn).toBeValid();
  expect(calls.filter((c) => c.url.startsWith('/api/employee/book') && c.method !== 'GET')).toEqual([]);
});

// A back-office form is busy while its call runs: a double click on Add Book Copy adds one copy. A
// delete says which version of the copy it read. A number left blank is refused before it is sent.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it, vi } from 'vitest';
import { heldAnswer, renderWithProviders, SIGNED_OUT, stubApi } from '../../../test/render';
import { expectDeleteRefusedAsStale } from '../../../test/stale-delete';
import CopiesPage from './copies-page';

afterEach(() => {
  vi.restoreAllMocks();
});

it('a double click on Add Book Copy sends one request, and the button is disabled meanwhile', async () => {
  const { held, release } = heldAnswer();
  const calls = stubApi({
    ...SIGNED_OUT,
    'GET /api/employee/book-copy/1,10': { body: { data: { booksCopies: [], totalPages: 1 } } },
    // The add call is held open, as a slow network would.
    'POST /api/employee/book-copy': { body: { data: true }, after: held },
  });
  renderWithProviders(<CopiesPage />, { route: '/book-copies' });
  await userEvent.type(screen.getByLabelText('Book ID'), '12');
  await userEvent.type(screen.getByLabelText('Quantity'), '3');
  await userEvent.type(screen.getByLabelText('Price'), '9.99');
  const add = screen.getByRole('button', { name: 'Add Book Copy' });
  await userEvent.dblClick(add);
  expect(add).toHaveAttribute('aria-disabled', 'true');
  release();
  expect(await screen.findByText('Book copy added successfully.')).toBeInTheDocument();
  expect(add).not.toHaveAttribute('aria-disabled');
  expect(calls.filter((c) => c.method === 'POST' && c.url === '/api/employee/book-copy')).toHaveLength(1);
});

it('an Admin deleting a copy restocked since the table showed it is refused, told its stock, and shown it as it is', async () => {
  vi.spyOn(window, 'confirm').mockReturnValue(true);
  const copy = (quantity: number, version: number) => ({ id: 5, bookId: 12, quantity, price: 9.99, isAvailable: true, version });
  const message = 'Someone else changed this copy since you opened it: stock is now 50. Look at it again before deleting it.';
  const calls = stubApi({
    ...SIGNED_OUT,
    'GET /api/employee/book-copy/1,10': [
      { body: { data: { booksCopies: [copy(0, 1)], totalPages: 1 } } },
      { body: { data: { booksCopies: [copy(50, 2)], totalPages: 1 } } },
    ],
    'DELETE /api/employee/book-copy/5': {
      status: 412,
      body: { data: null, error: { code: 'STALE_VERSION', message, details: { current: copy(50, 2) } } },
    },
  });
  renderWithProviders(<CopiesPage />, { route: '/book-copies' });
  await expectDeleteRefusedAsStale(calls, { failure: 'Failed to delete book copy.', reason: message, ifMatch: '"1"' });
  const row = (await screen.findByRole('cell', { name: '50' })).closest('tr')!;
  expect(within(row).getByRole('cell', { name: '5' })).toBeInTheDocument();
});

it('a copy with its price or quantity left blank is not sent, where it would be added or saved at $0.00 or no stock', async () => {
  const copy = { id: 5, bookId: 12, quantity: 3, price: 9.99, isAvailable: true, version: 1 };
  const calls = stubApi({
    ...SIGNED_OUT,
    'GET /api/employee/book-copy/1,10': { body: { data: { booksCopies: [copy], totalPages: 1 } } },
  });
  renderWithProviders(<CopiesPage />, { route: '/book-copies' });
  await userEvent.type(screen.getByLabelText('Book ID'), '12');
  await userEvent.type(screen.getByLabelText('Quantity'), '3');
  await userEvent.click(screen.getByRole('button', { name: 'Add Book Copy' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('All fields are required.');
  // The blank field is marked, told why, and has the focus; the filled ones are not marked.
  const price = screen.getByLabelText('Price');
  expect(price).toBeInvalid();
  expect(price).toHaveAccessibleDescription('All fields are required.');
  expect(price).toHaveFocus();
  expect(screen.getByLabelText('Book ID')).toBeValid();

  // Every row's Edit and Delete are told apart by their row's ID.
  const edit = await screen.findByRole('button', { name: 'Edit' });
  expect(edit).toHaveAccessibleDescription('ID 5');
  expect(screen.getByRole('button', { name: 'Delete' })).toHaveAccessibleDescription('ID 5');
  await userEvent.click(edit);
  const row = screen.getByRole('button', { name: 'Save' }).closest('tr')!;
  await userEvent.clear(within(row).getByLabelText('Price'));
  await userEvent.click(within(row).getByRole('button', { name: 'Save' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('All fields are required.');
  // Still editing, and nothing written.
  expect(within(row).getByRole('button', { name: 'Save' })).toBeInTheDocument();
  expect(calls.filter((c) => c.url.startsWith('/api/employee/book-copy') && c.method !== 'GET')).toEqual([]);
});

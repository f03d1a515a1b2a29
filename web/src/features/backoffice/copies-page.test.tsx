// A back-office form is busy while its call runs: a double click on Add Book Copy adds one copy.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it } from 'vitest';
import { heldAnswer, renderWithProviders, SIGNED_OUT, stubApi } from '../../../test/render';
import CopiesPage from './copies-page';

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
  expect(add).toBeDisabled();
  release();
  expect(await screen.findByText('Book copy added successfully.')).toBeInTheDocument();
  expect(add).toBeEnabled();
  expect(calls.filter((c) => c.method === 'POST' && c.url === '/api/employee/book-copy')).toHaveLength(1);
});

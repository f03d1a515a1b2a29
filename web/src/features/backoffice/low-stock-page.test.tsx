// Low Stock: both roles restock from the row; only the Admin sees the threshold form.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it } from 'vitest';
import { findStatusSaying, renderWithProviders, SIGNED_IN_ADMIN, SIGNED_IN_SELLER, stubApi } from '../../../test/render';
import { storage } from '../../lib/storage';
import LowStockPage from './low-stock-page';

const copy = (copyId: number, quantity: number, unitsSold30Days: number) => ({
  copyId,
  bookId: copyId + 100,
  bookName: `Book ${copyId}`,
  authorName: 'Some Author',
  quantity,
  price: 12.5,
  isAvailable: true,
  unitsSold30Days,
});
const page = (threshold: number, copies: ReturnType<typeof copy>[]) => ({
  body: { data: { threshold, copies, totalCopies: copies.length, totalPages: 1 } },
});

it('a Seller restocks a copy from its row and sees the list move; no threshold form for them', async () => {
  const calls = stubApi({
    ...SIGNED_IN_SELLER,
    'GET /api/employee/low-stock': [page(5, [copy(7, 1, 30), copy(9, 0, 2)]), page(5, [copy(9, 0, 2)])],
    'POST /api/employee/low-stock/7/restock': { body: { data: { quantity: 21 } } },
  });
  storage.setUserType('Seller');
  renderWithProviders(<LowStockPage />, { route: '/lowstock' });
  expect(await screen.findByRole('cell', { name: 'Book 7' })).toBeInTheDocument();
  expect(screen.getByText(/Copies with 5 or fewer units in stock/)).toBeInTheDocument();
  expect(screen.queryByLabelText('Low-stock threshold')).not.toBeInTheDocument();
  const units = screen.getByLabelText('Units to add to copy 7');
  await userEvent.clear(units);
  await userEvent.type(units, '20');
  await userEvent.click(screen.getAllByRole('button', { name: 'Restock' })[0]!);
  expect(await findStatusSaying('Copy 7 restocked: 21 in stock.')).toBeInTheDocument();
  expect(calls.find((c) => c.url === '/api/employee/low-stock/7/restock')?.body).toEqual({ add: 20 });
  await screen.findByText((_, el) => el?.tagName === 'TD' && el.textContent === 'Book 9');
  expect(screen.queryByRole('cell', { name: 'Book 7' })).not.toBeInTheDocument();
  expect(calls.find((c) => c.url === '/api/employee/low-stock')?.search).toBe('?pageNumber=1&pageSize=10');
});

it('Restock clicked again after a failure, the same units retyped or not, is the same restock (its key), so units are never added twice; other units are another', async () => {
  const timedOut = {
    status: 503,
    body: { data: null, error: { code: 'TIMEOUT', message: 'The request took too long. Please try again.' } },
  };
  const calls = stubApi({
    ...SIGNED_IN_SELLER,
    'GET /api/employee/low-stock': page(5, [copy(7, 1, 30)]),
    'POST /api/employee/low-stock/7/restock': [timedOut, { body: { data: { quantity: 11 } } }, { body: { data: { quantity: 16 } } }],
  });
  storage.setUserType('Seller');
  renderWithProviders(<LowStockPage />, { route: '/lowstock' });
  const restock = await screen.findByRole('button', { name: 'Restock' });
  await userEvent.click(restock);
  expect(await screen.findByText(/Copy 7 could not be restocked./)).toBeInTheDocument();
  // The same units typed again are the same restock.
  const units = screen.getByLabelText('Units to add to copy 7');
  await userEvent.clear(units);
  await userEvent.type(units, '10');
  await userEvent.click(restock);
  expect(await screen.findByText('Copy 7 restocked: 11 in stock.')).toBeInTheDocument();
  await userEvent.clear(units);
  await userEvent.type(units, '5');
  await userEvent.click(restock);
  expect(await screen.findByText('Copy 7 restocked: 16 in stock.')).toBeInTheDocument();
  const keys = calls.filter((c) => c.url === '/api/employee/low-stock/7/restock').map((c) => c.idempotencyKey);
  expect(keys).toHaveLength(3);
  expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
  expect(keys[1]).toBe(keys[0]);
  expect(keys[2]).not.toBe(keys[0]);
});

it('an Admin changes the threshold, which starts from the current one; an empty list says so', async () => {
  const calls = stubApi({
    ...SIGNED_IN_ADMIN,
    'GET /api/employee/low-stock': [page(5, []), page(2, [])],
    'PUT /api/employee/low-stock/threshold': { body: { data: { threshold: 2 } } },
  });
  storage.setUserType('Admin');
  renderWithProviders(<LowStockPage />, { route: '/lowstock' });
  const threshold = await screen.findByLabelText('Low-stock threshold');
  expect(threshold).toHaveValue(5);
  expect(screen.getByText('No copy is at or below the threshold.')).toBeInTheDocument();
  const save = screen.getByRole('button', { name: 'Save Threshold' });
  expect(save).toBeDisabled();
  await userEvent.clear(threshold);
  await userEvent.type(threshold, '2');
  await userEvent.click(save);
  expect(await findStatusSaying('Threshold saved.')).toBeInTheDocument();
  expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ threshold: 2 });
  expect(await screen.findByText(/Copies with 2 or fewer/)).toBeInTheDocument();
});

it("shows a copy's stock history, newest first, with why each change was made", async () => {
  const movement = (id: number, reason: string, change: number, stockAfter: number, actor: string | null = null) => ({
    id,
    at: '2026-11-25T10:00:00.000Z',
    change,
    stockAfter,
    reason,
    actor,
    reference: reason === 'import' ? 'import:4' : null,
  });
  stubApi({
    ...SIGNED_IN_SELLER,
    'GET /api/employee/low-stock': page(5, [copy(7, 1, 30)]),
    'GET /api/employee/low-stock/7/movements': {
      body: {
        data: {
          movements: [movement(3, 'sale', -2, 1), movement(2, 'import', 3, 3, 'employee:1'), movement(1, 'new_copy', 0, 0)],
          totalPages: 1,
        },
      },
    },
  });
  storage.setUserType('Seller');
  renderWithProviders(<LowStockPage />, { route: '/lowstock' });
  await userEvent.click(await screen.findByRole('button', { name: 'Stock history of Book 7' }));
  const dialog = await screen.findByRole('dialog', { name: 'Stock history of Book 7' });
  expect(await within(dialog).findByRole('cell', { name: 'Sale' })).toBeInTheDocument();
  expect(within(dialog).getByRole('cell', { name: '-2' })).toBeInTheDocument();
  expect(within(dialog).getByRole('cell', { name: 'Import (import:4)' })).toBeInTheDocument();
  expect(within(dialog).getByRole('cell', { name: '+3' })).toBeInTheDocument();
  expect(within(dialog).getByRole('cell', { name: 'employee:1' })).toBeInTheDocument();
});

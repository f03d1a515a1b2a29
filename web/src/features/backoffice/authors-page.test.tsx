// Back-office notices keep the spec's text and add the server's reason; a failed search is not "no author found".
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it, vi } from 'vitest';
import { renderWithProviders, SIGNED_OUT, stubApi } from '../../../test/render';
import AuthorsPage from './authors-page';

const list = { 'GET /api/employee/author/1,10': { body: { data: { authors: [{ id: 7, fullName: 'Frank Herbert' }], totalPages: 1 } } } };

afterEach(() => vi.restoreAllMocks());

it("a refused delete shows 'Failed to delete author.' and the server's reason under it", async () => {
  vi.spyOn(window, 'confirm').mockReturnValue(true);
  const reason = 'This author still has 3 books; delete or reassign them first.';
  stubApi({
    ...SIGNED_OUT,
    ...list,
    'DELETE /api/employee/author/7': { status: 409, body: { data: null, error: { code: 'CONFLICT', message: reason } } },
  });
  renderWithProviders(<AuthorsPage />, { route: '/authors' });
  await userEvent.click(await screen.findByRole('button', { name: 'Delete' }));
  const alert = await screen.findByRole('alert');
  expect(alert).toHaveTextContent('Failed to delete author.');
  expect(alert).toHaveTextContent(reason);
});

it('a search that fails says so, not that no author was found', async () => {
  stubApi({
    ...SIGNED_OUT,
    ...list,
    'GET /api/employee/author/by-name/herbert': { status: 503, body: { data: null, error: { code: 'TIMEOUT', message: 'Too slow.' } } },
  });
  renderWithProviders(<AuthorsPage />, { route: '/authors' });
  await screen.findByText('Frank Herbert');
  await userEvent.type(screen.getByPlaceholderText('Search by ID or name'), 'herbert');
  await userEvent.click(screen.getByRole('button', { name: 'Search' }));
  const alert = await screen.findByRole('alert');
  expect(alert).toHaveTextContent('The search failed.');
  expect(alert).toHaveTextContent('Too slow.');
  expect(alert).not.toHaveTextContent('No author found.');
});

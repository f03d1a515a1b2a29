// Search results tell a failed search from one that found nothing.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it } from 'vitest';
import { renderWithProviders, SIGNED_OUT, stubApi } from '../../../../test/render';
import { storage } from '../../../lib/storage';
import SearchResultsPage from './search-results';

it('a search that fails says so and can be retried; one that finds nothing says so', async () => {
  storage.setSearchQuery('dune');
  stubApi({
    ...SIGNED_OUT,
    'GET /api/public/book-copy/by-name/dune': { status: 503, body: { data: null, error: { code: 'TIMEOUT', message: 'Too slow.' } } },
  });
  renderWithProviders(<SearchResultsPage />, { route: '/searchresult' });
  expect(await screen.findByText('Could not load the search results.')).toBeInTheDocument();
  expect(screen.queryByText(/No results found/)).not.toBeInTheDocument();

  stubApi({ ...SIGNED_OUT, 'GET /api/public/book-copy/by-name/dune': { body: { data: [] } } });
  await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
  expect(await screen.findByText(/No results found for/)).toBeInTheDocument();
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
});

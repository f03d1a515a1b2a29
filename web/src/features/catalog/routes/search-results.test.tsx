// Search results tell a failed search from one that found nothing.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it } from 'vitest';
import { renderWithProviders, SIGNED_OUT, stubApi } from '../../../../test/render';
import { storage } from '../../../lib/storage';
import SearchResultsPage from './search-results';

const EMPTY_PAGE = {
  booksCopies: [],
  pageNumber: 1,
  total: 0,
  totalEstimated: false,
  totalPages: 0,
  facets: { estimated: false, price: [], rating: [], year: [], inStock: 0, authors: [] },
};

it('a search that fails says so and can be retried; one that finds nothing says so', async () => {
  storage.setSearchQuery('dune');
  stubApi({
    ...SIGNED_OUT,
    'GET /api/public/book-copy/search/': { status: 503, body: { data: null, error: { code: 'TIMEOUT', message: 'Too slow.' } } },
  });
  renderWithProviders(<SearchResultsPage />, { route: '/searchresult' });
  expect(await screen.findByText('Could not load the search results.')).toBeInTheDocument();
  expect(screen.queryByText(/No results found/)).not.toBeInTheDocument();

  stubApi({ ...SIGNED_OUT, 'GET /api/public/book-copy/search/': { body: { data: EMPTY_PAGE } } });
  await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
  expect(await screen.findByText(/No results found for/)).toBeInTheDocument();
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
});

it('a search with no letter or digit in it finds nothing, without asking the server', async () => {
  // No stub for the search call: MSW fails the test on any request this page makes for it.
  stubApi(SIGNED_OUT);
  renderWithProviders(<SearchResultsPage />, { route: '/searchresult?q=%3F%21' });
  expect(await screen.findByText(/No results found for/)).toHaveTextContent('No results found for ?!');
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
});

// A listing's sort, filters and page live in the address (read and written by @bookshop/rules/browse,
// whose own test round-trips any state): the controls write it there (a new history entry, so Back
// undoes a choice), a value that would leave no book says so, and Clear filters is one click. A page
// past the end moves to the last page in place (spec 2.5's clamp, as the server's redirect does).
import { SEARCH_TEXT_MAX_LENGTH } from '@bookshop/rules/browse';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { Link, Route, Routes, useLocation, useNavigate } from 'react-router-dom';
import { expect, it } from 'vitest';
import { apiServer, renderWithProviders, SIGNED_OUT, stubApi } from '../../../../test/render';
import CategoryRoute from '../routes/category';
import SearchResultsPage from '../routes/search-results';

const TYPES = { body: { data: [{ id: 1, name: 'Fantasy' }] } };
const card = (id: number, name: string) => ({
  id,
  name,
  imageUrl: 'https://covers.example/x.jpg',
  author: 'Frank Herbert',
  authorName: 'Frank Herbert',
  authorId: 7,
  category: 'Fantasy',
  price: 9.99,
  quantity: 3,
  description: '',
  averageRating: 4.2,
  ratingsCount: 10,
});
const page = (books: ReturnType<typeof card>[], total: number) => ({
  body: {
    data: {
      booksCopies: books,
      pageNumber: 1,
      total,
      totalEstimated: false,
      totalPages: Math.ceil(total / 15),
      facets: {
        estimated: false,
        price: [
          { min: null, max: 9.99, count: 12 },
          { min: 10, max: 14.99, count: 0 },
        ],
        rating: [{ min: 4, count: 5 }],
        year: [{ from: 2000, to: 2009, count: 3 }],
        inStock: 20,
        authors: [{ id: 7, name: 'Frank Herbert', count: 2 }],
      },
    },
  },
});

function Address() {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  return (
    <>
      <output aria-label="address">{pathname + search}</output>
      <button type="button" onClick={() => navigate(-1)}>
        Back
      </button>
      <Link to="/Fantasy?sort=newest&page=99999">An old link to page 99,999</Link>
    </>
  );
}
const address = () => screen.getByRole('status', { name: 'address' }).textContent;

/**
 * A listing call answered as the API pages `books` (15 a page): a page past the end holds no book
 * but the same total and page count. Returns the pages asked for, in order.
 */
function servePaged(path: string, books: ReturnType<typeof card>[]) {
  const asked: number[] = [];
  const texts: string[] = [];
  apiServer.use(
    http.get(
      ({ request }) => new URL(request.url).pathname === path,
      ({ request }) => {
        const query = new URL(request.url).searchParams;
        const pageNumber = Number(query.get('pageNumber'));
        asked.push(pageNumber);
        texts.push(query.get('text') ?? '');
        const answer = page(books.slice((pageNumber - 1) * 15, pageNumber * 15), books.length).body;
        return HttpResponse.json({ data: { ...answer.data, pageNumber } });
      },
    ),
  );
  return { asked, texts };
}
const books = (count: number) => Array.from({ length: count }, (_, i) => card(i + 1, `Book ${i + 1}`));

function renderCategory(route: string) {
  return renderWithProviders(
    <>
      <Routes>
        <Route path="/:category" element={<CategoryRoute />} />
      </Routes>
      <Address />
    </>,
    { route },
  );
}

it('writes each choice to the address, Back undoes it, a value with no books says so, and Clear filters clears them all', async () => {
  const calls = stubApi({
    ...SIGNED_OUT,
    'GET /api/public/book-copy/types/': TYPES,
    'GET /api/public/book-copy/browse/Fantasy': page([card(1, 'Dune'), card(2, 'Children of Dune')], 20),
  });
  renderWithProviders(
    <>
      <Routes>
        <Route path="/:category" element={<CategoryRoute />} />
      </Routes>
      <Address />
    </>,
    { route: '/Fantasy?sort=price-asc&inStock=1' },
  );
  const filters = await screen.findByRole('complementary', { name: 'Sort and filters' });
  expect(await within(filters).findByRole('checkbox', { name: /In stock only/ })).toBeChecked();
  expect(within(filters).getByRole('combobox', { name: /Sort by/ })).toHaveValue('price-asc');
  expect(calls.at(-1)!.search).toContain('sort=price-asc');
  expect(calls.at(-1)!.search).toContain('inStock=true');

  // A band that would leave no book says so and cannot be chosen.
  const none = within(filters).getByRole('radio', { name: /\$10 to \$14\.99/ });
  expect(none).toBeDisabled();
  expect(none.closest('label')).toHaveTextContent('(none)');

  await userEvent.click(within(filters).getByRole('radio', { name: /Under \$10/ }));
  expect(address()).toBe('/Fantasy?sort=price-asc&priceMax=9.99&inStock=1');
  await userEvent.click(within(filters).getByRole('radio', { name: /Frank Herbert/ }));
  expect(address()).toBe('/Fantasy?sort=price-asc&priceMax=9.99&inStock=1&authorId=7');

  await userEvent.click(screen.getByRole('button', { name: 'Back' }));
  expect(address()).toBe('/Fantasy?sort=price-asc&priceMax=9.99&inStock=1');
  expect(within(filters).getByRole('radio', { name: /Under \$10/ })).toBeChecked();

  await userEvent.click(within(filters).getByRole('button', { name: 'Clear filters' }));
  expect(address()).toBe('/Fantasy?sort=price-asc');
  expect(within(filters).queryByRole('button', { name: 'Clear filters' })).not.toBeInTheDocument();
});

it("moves a page past a category's end to its last page in place, never saying the category is empty", async () => {
  stubApi({ ...SIGNED_OUT, 'GET /api/public/book-copy/types/': TYPES });
  const { asked } = servePaged('/api/public/book-copy/browse/Fantasy', books(20));
  renderCategory('/Fantasy');
  expect(await screen.findByText('Page 1 of 2')).toBeInTheDocument();

  await userEvent.click(screen.getByRole('link', { name: 'An old link to page 99,999' }));
  expect(await screen.findByRole('heading', { name: 'Book 16' })).toBeInTheDocument();
  expect(screen.getByText('Page 2 of 2')).toBeInTheDocument();
  expect(address()).toBe('/Fantasy?sort=newest&page=2');
  expect(asked).toEqual([1, 99_999, 2]);
  expect(screen.queryByText('No books in this category yet.')).not.toBeInTheDocument();
  // The page past the end left no entry in the history: Back returns to where the shopper came from.
  await userEvent.click(screen.getByRole('button', { name: 'Back' }));
  expect(address()).toBe('/Fantasy');
  expect(await screen.findByText('Page 1 of 2')).toBeInTheDocument();
});

it("opens a shared address's page 2 at page 2, not clamped before the answer says how many there are", async () => {
  stubApi({ ...SIGNED_OUT, 'GET /api/public/book-copy/types/': TYPES });
  const { asked } = servePaged('/api/public/book-copy/browse/Fantasy', books(20));
  renderCategory('/Fantasy?page=2');
  // Not clamped to 1 before the answer says how many pages there are.
  expect(await screen.findByText('Page 2 of 2')).toBeInTheDocument();
  expect(address()).toBe('/Fantasy?page=2');
  expect(asked).toEqual([2]);
});

it('shows an empty category past its end at its first page, with the empty text', async () => {
  stubApi({ ...SIGNED_OUT, 'GET /api/public/book-copy/types/': TYPES });
  servePaged('/api/public/book-copy/browse/Fantasy', []);
  renderCategory('/Fantasy?page=3');
  expect(await screen.findByText('No books in this category yet.')).toBeInTheDocument();
  expect(address()).toBe('/Fantasy');
});

it("keeps a category's address, sort and filters when the categories cannot be read, and shows it once Retry reads them", async () => {
  stubApi({
    ...SIGNED_OUT,
    'GET /api/public/book-copy/types/': [{ status: 503, body: { data: null, error: { code: 'UNAVAILABLE', message: 'Busy.' } } }, TYPES],
  });
  servePaged('/api/public/book-copy/browse/Fantasy', books(3));
  renderCategory('/Fantasy?sort=price-asc');
  expect(await screen.findByText('Could not load the categories.')).toBeInTheDocument();
  expect(address()).toBe('/Fantasy?sort=price-asc');
  await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
  expect(await screen.findByText('Book 1')).toBeInTheDocument();
  expect(address()).toBe('/Fantasy?sort=price-asc');
});

it("says why a category's books could not be loaded, with a Retry that loads them", async () => {
  stubApi({
    ...SIGNED_OUT,
    'GET /api/public/book-copy/types/': TYPES,
    'GET /api/public/book-copy/browse/Fantasy': [
      { status: 503, headers: { 'retry-after': '5' }, body: { data: null, error: { code: 'UNAVAILABLE', message: 'The shop is busy.' } } },
      page(books(3), 3),
    ],
  });
  renderCategory('/Fantasy');
  const failure = await screen.findByRole('alert');
  expect(failure).toHaveTextContent("Could not load this category's books.");
  expect(failure).toHaveTextContent('The shop is busy.');
  await userEvent.click(within(failure).getByRole('button', { name: 'Retry' }));
  expect(await screen.findByText('Book 1')).toBeInTheDocument();
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
});

it("moves a search's page past the end to its last page, and asks for the text cut as the server reads it", async () => {
  stubApi(SIGNED_OUT);
  const { asked, texts } = servePaged('/api/public/book-copy/search/', books(20));
  renderWithProviders(
    <>
      <Routes>
        <Route path="/searchresult" element={<SearchResultsPage />} />
      </Routes>
      <Address />
    </>,
    { route: `/searchresult?q=${'d'.repeat(300)}&inStock=1&page=99` },
  );
  expect(await screen.findByRole('heading', { name: 'Book 16' })).toBeInTheDocument();
  expect(screen.getByText('Page 2 of 2')).toBeInTheDocument();
  expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Search Results for');
  expect(address()).toBe(`/searchresult?q=${'d'.repeat(300)}&inStock=1&page=2`);
  expect(screen.queryByText('No books match these filters.')).not.toBeInTheDocument();
  expect(asked).toEqual([99, 2]);
  expect(texts).toEqual(['d'.repeat(SEARCH_TEXT_MAX_LENGTH), 'd'.repeat(SEARCH_TEXT_MAX_LENGTH)]);
});

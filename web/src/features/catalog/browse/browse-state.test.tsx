// A listing's sort, filters and page live in the address: any state survives a round trip through
// the query string, the controls write it there (a new history entry, so Back undoes a choice), a
// value that would leave no book says so, and Clear filters is one click.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import fc from 'fast-check';
import { Route, Routes, useLocation, useNavigate } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { renderWithProviders, SIGNED_OUT, stubApi } from '../../../../test/render';
import CategoryRoute from '../routes/category';
import { type BrowseState, browseSearchParams, parseBrowseState, SORTS } from './browse-state';

describe('the address', () => {
  it('round-trips any state: parse(serialize(state)) is the state, and the text is stable', () => {
    const state = fc.record(
      {
        sort: fc.constantFrom(...SORTS),
        priceMin: fc.integer({ min: 0, max: 100_000 }).map((c) => c / 100),
        priceMax: fc.integer({ min: 0, max: 100_000 }).map((c) => c / 100),
        inStock: fc.constant(true),
        minRating: fc.integer({ min: 0, max: 500 }).map((c) => c / 100),
        yearFrom: fc.integer({ min: 1, max: 9999 }),
        yearTo: fc.integer({ min: 1, max: 9999 }),
        authorId: fc.integer({ min: 1, max: 2147483647 }),
        page: fc.integer({ min: 2, max: 100_000 }),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(state, (s: BrowseState) => {
        const text = browseSearchParams(s, { q: 'harry' }).toString();
        const parsed = parseBrowseState(new URLSearchParams(text));
        expect(parsed).toEqual(s);
        expect(browseSearchParams(parsed, { q: 'harry' }).toString()).toBe(text);
      }),
    );
  });

  it('drops what it does not understand', () => {
    expect(parseBrowseState(new URLSearchParams('sort=random&priceMin=-1&minRating=9&yearFrom=1e3&page=1&inStock=yes'))).toEqual({});
  });
});

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
    </>
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
  const address = () => screen.getByRole('status', { name: 'address' }).textContent;
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

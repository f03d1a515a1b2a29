// A listing's sort, filters and page live in the address (read and written by @bookshop/rules/browse,
// whose own test round-trips any state): the controls write it there (a new history entry, so Back
// undoes a choice), a value that would leave no book says so, and Clear filters is one click.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation, useNavigate } from 'react-router-dom';
import { expect, it } from 'vitest';
import { renderWithProviders, SIGNED_OUT, stubApi } from '../../../../test/render';
import CategoryRoute from '../routes/category';

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

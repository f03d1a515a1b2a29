// The home lists' cards: each has the spec's "Add to Cart", the same name on every card, so each is
// described by its card's title and a screen reader's list of buttons says which book each is for.
import { screen, within } from '@testing-library/react';
import { expect, it } from 'vitest';
import { renderWithProviders, SIGNED_OUT, stubApi } from '../../../../test/render';
import HomePage from './home';

const card = (id: number, name: string) => ({ id, name, imageUrl: null, authorName: 'Frank Herbert', authorId: 3, price: 9.99 });

it("each card's Add to Cart is described by its book, the same book in two lists included", async () => {
  const dune = { body: { data: [card(7, 'Dune'), card(8, 'Dune Messiah')] } };
  stubApi({
    ...SIGNED_OUT,
    'GET /api/public/book-copy/recommended/': dune,
    'GET /api/public/book-copy/top-rated/': { body: { data: [card(7, 'Dune')] } },
    'GET /api/public/book-copy/best-sellers/': { body: { data: [] } },
    'GET /api/public/book-copy/new-releases/': { body: { data: [] } },
  });
  renderWithProviders(<HomePage />);
  const recommended = await screen.findByRole('region', { name: 'Recommended' });
  const buttons = await within(recommended).findAllByRole('button', { name: 'Add to Cart' });
  expect(buttons[0]).toHaveAccessibleDescription('Dune');
  expect(buttons[1]).toHaveAccessibleDescription('Dune Messiah');
  const topRated = screen.getByRole('region', { name: 'Top Rated' });
  expect(await within(topRated).findByRole('button', { name: 'Add to Cart' })).toHaveAccessibleDescription('Dune');
  // Each described by its own card's title: no id is used twice on the page.
  const described = screen.getAllByRole('button', { name: 'Add to Cart' }).map((button) => button.getAttribute('aria-describedby'));
  expect(new Set(described).size).toBe(3);
});

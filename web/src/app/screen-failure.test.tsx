// The storefront's screens load as chunks: one that cannot be fetched (a tab opened before a deploy)
// is said in the screen's place, under the shop's own top bar, where it left a white page.
import { screen, within } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { renderWithProviders, SIGNED_OUT, stubApi } from '../../test/render';
import { SCREEN_FAILURE_TEXT } from '../components/screen-boundary';
import Storefront from './storefront';

vi.mock('../features/contact/about-page', () => {
  throw new TypeError('Failed to fetch dynamically imported module: /assets/about-page-1a2b3c.js');
});

afterEach(() => {
  vi.restoreAllMocks();
});

it("a screen whose chunk is gone is said in its place, with Reload, and the shop's top bar stays", async () => {
  vi.spyOn(console, 'error').mockImplementation(() => {}); // React reports the error it caught
  stubApi({ ...SIGNED_OUT, 'GET /api/public/book-copy/types/': { body: { data: [] } } });
  renderWithProviders(<Storefront />, { route: '/about' });
  // Vitest wraps the module's failure in its own words, so either of the boundary's texts may say it.
  const alert = await screen.findByRole('alert');
  expect([SCREEN_FAILURE_TEXT.updated, SCREEN_FAILURE_TEXT.broken]).toContain(alert.querySelector('p')?.textContent);
  expect(within(alert).getByRole('button', { name: 'Reload' })).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'Contact Us' })).toBeInTheDocument();
});

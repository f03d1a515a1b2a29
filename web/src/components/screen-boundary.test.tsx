// A screen whose chunk cannot be fetched (a tab opened before a deploy) or that fails while rendering
// says so in its place, with Reload; the rest of the app stays, and another address gets its chance.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { lazy, Suspense } from 'react';
import { Link, Route, Routes } from 'react-router-dom';
import { afterEach, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { SCREEN_FAILURE_TEXT, ScreenBoundary } from './screen-boundary';

afterEach(() => {
  vi.restoreAllMocks();
});

/** A lazy screen whose module the server no longer has, as the browser reports it. */
const GoneScreen = lazy(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/cart-page-1a2b3c.js')));

function Broken(): never {
  throw new Error('a rendering fault');
}

function Shop() {
  return (
    <>
      <nav>
        <Link to="/about">About</Link>
      </nav>
      <ScreenBoundary>
        <Suspense fallback={<p>Loading...</p>}>
          <Routes>
            <Route path="/cart" element={<GoneScreen />} />
            <Route path="/broken" element={<Broken />} />
            <Route path="/about" element={<h1>About</h1>} />
          </Routes>
        </Suspense>
      </ScreenBoundary>
    </>
  );
}

it('a screen whose chunk is gone says the shop may have been updated, offers Reload, and the menu still leads elsewhere', async () => {
  vi.spyOn(console, 'error').mockImplementation(() => {}); // React reports the caught error
  renderWithProviders(<Shop />, { route: '/cart' });
  const alert = await screen.findByRole('alert');
  expect(alert).toHaveTextContent(SCREEN_FAILURE_TEXT.updated);
  expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();
  await userEvent.click(screen.getByRole('link', { name: 'About' }));
  expect(await screen.findByRole('heading', { name: 'About' })).toBeInTheDocument();
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
});

it("a screen whose stylesheet is gone (Vite's preload) says the shop may have been updated too", async () => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  const NoStyles = lazy(() => Promise.reject(new Error('Unable to preload CSS for /assets/cart-page-1a2b3c.css')));
  renderWithProviders(
    <ScreenBoundary>
      <Suspense fallback={<p>Loading...</p>}>
        <NoStyles />
      </Suspense>
    </ScreenBoundary>,
  );
  expect(await screen.findByRole('alert')).toHaveTextContent(SCREEN_FAILURE_TEXT.updated);
});

it('a screen that fails while rendering says something went wrong, in its place', async () => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  renderWithProviders(<Shop />, { route: '/broken' });
  expect(await screen.findByRole('alert')).toHaveTextContent(SCREEN_FAILURE_TEXT.broken);
  expect(screen.getByRole('link', { name: 'About' })).toBeInTheDocument();
});

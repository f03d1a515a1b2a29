// The build writes renderHomePage() into index.html; the browser then hydrates it. A mismatch would
// make React throw the prerendered page away and render again, losing the early paint.
import { QueryClient } from '@tanstack/react-query';
import { act } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { MemoryRouter } from 'react-router-dom';
import { expect, it } from 'vitest';
import { SIGNED_OUT, stubApi } from '../test/render';
import { AppTree } from './app/app-tree';
import { renderHomePage } from './prerender';

it('the prerendered home page holds the hero and hydrates in place, without a mismatch', async () => {
  const nothingYet = { body: { data: [] } };
  stubApi({
    ...SIGNED_OUT,
    'GET /api/public/book-copy/types/': nothingYet,
    'GET /api/public/book-copy/recommended/': nothingYet,
    'GET /api/public/book-copy/top-rated/': nothingYet,
    'GET /api/public/book-copy/best-sellers/': nothingYet,
    'GET /api/public/book-copy/new-releases/': nothingYet,
  });
  const html = renderHomePage();
  expect(html).toContain('Find your next great read');
  expect(html).toContain('Over five thousand books across ten categories');

  const root = document.createElement('div');
  root.innerHTML = html;
  document.body.append(root);
  const prerenderedHeading = root.querySelector('h1');
  const mismatches: unknown[] = [];
  let hydrated: ReturnType<typeof hydrateRoot> | undefined;
  await act(async () => {
    hydrated = hydrateRoot(root, <AppTree queryClient={new QueryClient()} router={(app) => <MemoryRouter>{app}</MemoryRouter>} />, {
      onRecoverableError: (error) => mismatches.push(error),
    });
  });
  expect(mismatches).toEqual([]);
  // Hydrated, not replaced: the very element the HTML brought is the one on screen.
  expect(root.querySelector('h1')).toBe(prerenderedHeading);
  act(() => hydrated?.unmount());
  root.remove();
});

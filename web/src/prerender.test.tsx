// The build writes renderHomePage() into index.html; the browser then hydrates it. A mismatch would
// make React throw the prerendered page away and render again, losing the early paint.
import { QueryClient } from '@tanstack/react-query';
import { act } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { MemoryRouter } from 'react-router-dom';
import { expect, it } from 'vitest';
import { stubApi } from '../test/render';
import { AppTree } from './app/app-tree';
import { renderHomePage } from './prerender';

it('the prerendered home page holds the hero and hydrates in place, without a mismatch', async () => {
  stubApi({});
  const html = renderHomePage();
  expect(html).toContain('Find your next great read');
  expect(html).toContain('Over five thousand books across ten categories');

  const root = document.createElement('div');
  root.innerHTML = html;
  document.body.append(root);
  const prerenderedHeading = root.querySelector('h1');
  const mismatches: unknown[] = [];
  await act(async () => {
    hydrateRoot(root, <AppTree queryClient={new QueryClient()} router={(app) => <MemoryRouter>{app}</MemoryRouter>} />, {
      onRecoverableError: (error) => mismatches.push(error),
    });
  });
  expect(mismatches).toEqual([]);
  // Hydrated, not replaced: the very element the HTML brought is the one on screen.
  expect(root.querySelector('h1')).toBe(prerenderedHeading);
  root.remove();
});

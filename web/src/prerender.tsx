// Build time only (scripts/prerender-home.ts): the home page as a first-time visitor's browser first
// renders it (signed out, lists loading), so the served HTML already holds the header and the hero
// and the browser paints them before any JavaScript runs. The browser then hydrates this markup.
import { QueryClient } from '@tanstack/react-query';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom';
import { AppTree } from './app/app-tree';
import { HOME_LISTS } from './features/catalog/api/get-home-list';

export function renderHomePage(): string {
  return renderToString(<AppTree queryClient={new QueryClient()} router={(app) => <StaticRouter location="/">{app}</StaticRouter>} />);
}

/**
 * The home lists' calls, started by the browser as it reads the HTML instead of after the scripts
 * have loaded and run: the lists are the page's largest content. Same URL, mode and credentials as
 * the app's own fetch (api/client.ts), so the app's call is answered by the preloaded response.
 */
export function homeListPreloads(): string {
  return HOME_LISTS.map((list) => `<link rel="preload" as="fetch" href="${list.path}" crossorigin="use-credentials">`).join('');
}

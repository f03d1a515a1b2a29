// Build time only (scripts/prerender-home.ts): the home page as a first-time visitor's browser first
// renders it (signed out, lists loading), so the served HTML already holds the header and the hero
// and the browser paints them before any JavaScript runs. The browser then hydrates this markup.
import { QueryClient } from '@tanstack/react-query';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom';
import { AppTree } from './app/app-tree';

export function renderHomePage(): string {
  return renderToString(<AppTree queryClient={new QueryClient()} router={(app) => <StaticRouter location="/">{app}</StaticRouter>} />);
}

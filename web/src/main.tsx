import { QueryClient } from '@tanstack/react-query';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { ApiError } from './api/client';
import { AppTree } from './app/app-tree';
import { storage } from './lib/storage';
import './styles.css';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      // A 4xx will not change on retry; a network blip might.
      retry: (count, error) => count < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
    },
  },
});

const root = document.getElementById('root')!;
const tree = <AppTree queryClient={queryClient} router={(app) => <BrowserRouter>{app}</BrowserRouter>} />;
// index.html holds the home page as a signed-out shopper first sees it (scripts/prerender-home.ts):
// hydrated where that is what this browser renders too, replaced anywhere else (an employee's
// stored user type shows the back-office).
if (root.hasChildNodes() && location.pathname === '/' && storage.getUserType() === 'Client') {
  hydrateRoot(root, tree);
} else {
  root.replaceChildren();
  createRoot(root).render(tree);
}

import { QueryClient } from '@tanstack/react-query';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { AppTree } from './app/app-tree';
import { retryRead, retryReadDelay } from './lib/query-retry';
import { storage } from './lib/storage';
import './styles.css';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      retry: retryRead,
      retryDelay: retryReadDelay,
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

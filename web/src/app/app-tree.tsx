// The whole app with its providers, in one place for both renders of it: the browser's (main.tsx,
// with a BrowserRouter) and the build's prerender of the home page (prerender.tsx, with a
// StaticRouter). Hydration needs the two trees to be the same.
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, StrictMode } from 'react';
import { SessionProvider } from '../lib/session';
import { App } from './app';
import { ComposeFeatures } from './compose-features';

export function AppTree({ queryClient, router }: { queryClient: QueryClient; router: (app: ReactNode) => ReactNode }) {
  return (
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        {router(
          <SessionProvider>
            <ComposeFeatures>
              <App />
            </ComposeFeatures>
          </SessionProvider>,
        )}
      </QueryClientProvider>
    </StrictMode>
  );
}

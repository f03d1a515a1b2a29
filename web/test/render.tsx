// Renders a component with the app's providers: a fresh query client, a router, and the session.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { SessionProvider } from '../src/features/auth/session';

export function renderWithProviders(ui: ReactNode, { route = '/', state }: { route?: string; state?: unknown } = {}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[{ pathname: route, state }]}>
        <SessionProvider>{ui}</SessionProvider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/**
 * The API is someone else's process in these component tests: fetch is replaced by a table of
 * canned answers (the real API is exercised by the integration and browser tests).
 */
export function stubApi(answers: Record<string, { status?: number; body: unknown }>) {
  const calls: { method: string; url: string; body?: unknown }[] = [];
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(String(input), init);
    const url = new URL(request.url, 'http://localhost').pathname;
    const text = request.method === 'GET' ? undefined : await request.text();
    calls.push({ method: request.method, url, body: text ? JSON.parse(text) : undefined });
    const key = Object.keys(answers).find((k) => k === `${request.method} ${url}`);
    const answer = key
      ? answers[key]!
      : { status: 401, body: { data: null, error: { code: 'UNAUTHORIZED', message: 'You must be signed in.' } } };
    return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  return calls;
}

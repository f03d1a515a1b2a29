// Renders a component with the app's providers (a fresh query client, a router, the session, the
// features composed as the app composes them), and answers its API calls with MSW. Every call a
// test makes must be answered by a stub it declared: an unmatched one is an error that fails the
// test (test/setup.ts), so a mistyped stub can never pass as a signed-out or empty screen.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation, useNavigate } from 'react-router-dom';
import { ComposeFeatures } from '../src/app/compose-features';
import { SessionProvider } from '../src/lib/session';

export const apiServer = setupServer();

export function renderWithProviders(ui: ReactNode, { route = '/', state }: { route?: string; state?: unknown } = {}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  // A route may carry a query string (a reset e-mail's link does).
  const { pathname, search } = new URL(route, 'http://shop.test');
  return render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[{ pathname, search, state }]}>
        <SessionProvider>
          <ComposeFeatures>{ui}</ComposeFeatures>
        </SessionProvider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/** The address the router is at, readable as the status named 'address'; `withBack`: and the browser's Back. */
export function Address({ withSearch = false, withBack = false }: { withSearch?: boolean; withBack?: boolean }) {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  return (
    <>
      <output aria-label="address">{withSearch ? `${pathname}${search}` : pathname}</output>
      {withBack && (
        <button type="button" onClick={() => navigate(-1)}>
          Back
        </button>
      )}
    </>
  );
}

/**
 * A screen at its route pattern, opened at `route`, beside the router's address: for screens that
 * read their address and move to a canonical one.
 */
export function renderRoute(pattern: string, screen: ReactNode, route: string) {
  return renderWithProviders(
    <>
      <Routes>
        <Route path={pattern} element={screen} />
      </Routes>
      <Address />
    </>,
    { route },
  );
}

/**
 * The status region once it says `text`. A notice's region is on the page, empty, before it says
 * anything (so it is announced), and a screen may have several: the one that says it is the one found.
 */
export const findStatusSaying = (text: string, scope: Pick<typeof screen, 'findByText'> = screen) =>
  scope.findByText((_, element) => element?.getAttribute('role') === 'status' && (element.textContent ?? '').includes(text));

/** A canned answer; `after`: held until that promise settles, as a slow network would. */
export interface StubAnswer {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
  after?: Promise<unknown>;
}

/** An answer held open, as a slow network would hold it, until `release()`: give `held` as a stub's `after`. */
export function heldAnswer() {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { held, release };
}

export const refusal = (status: number, code: string, message: string, details?: Record<string, unknown>): StubAnswer => ({
  status,
  body: { data: null, error: { code, message, ...(details && { details }) } },
});

export const UNAUTHORIZED = refusal(401, 'UNAUTHORIZED', 'You must be signed in.');

/** The two refreshes the session makes on start (spec 4), refused: a visitor who is signed in nowhere. */
export const SIGNED_OUT: Record<string, StubAnswer> = {
  'POST /api/public/authentication/refresh-tokens/Client': UNAUTHORIZED,
  'POST /api/public/authentication/refresh-tokens/Employee': UNAUTHORIZED,
};

/** An Admin signed in to the back-office only. */
export const SIGNED_IN_ADMIN: Record<string, StubAnswer> = {
  'POST /api/public/authentication/refresh-tokens/Client': UNAUTHORIZED,
  'POST /api/public/authentication/refresh-tokens/Employee': { body: { data: 'Admin' } },
};
export const SIGNED_IN_SELLER: Record<string, StubAnswer> = {
  ...SIGNED_IN_ADMIN,
  'POST /api/public/authentication/refresh-tokens/Employee': { body: { data: 'Seller' } },
};

/** A shopper signed in to the storefront only: the client refresh works, the employee one is refused. */
export const SIGNED_IN_CLIENT: Record<string, StubAnswer> = {
  'POST /api/public/authentication/refresh-tokens/Client': { body: { data: 'Client' } },
  'POST /api/public/authentication/refresh-tokens/Employee': UNAUTHORIZED,
};

/**
 * Answers `METHOD /path` calls (the path exactly as the app sends it, percent-encoding included).
 * A list answers successive calls in turn, its last answer repeating; 'network error' fails the
 * call as an unreachable server would. Returns every answered call, in order, with its query string,
 * its body (parsed when JSON), the version it said it read (If-Match) and its Idempotency-Key.
 */
export function stubApi(answers: Record<string, StubAnswer | StubAnswer[] | 'network error'>) {
  const calls: { method: string; url: string; search: string; body?: unknown; ifMatch?: string; idempotencyKey?: string }[] = [];
  const handlers = Object.entries(answers).map(([key, answer]) => {
    const [method = '', path = ''] = key.split(' ');
    let served = 0;
    // A predicate, not a path pattern: the app's paths hold commas and percent-encoded text.
    return http.all(
      ({ request }) => request.method === method && new URL(request.url).pathname === path,
      async ({ request }) => {
        const text = request.method === 'GET' ? '' : await request.text();
        const json = request.headers.get('content-type')?.includes('json');
        calls.push({
          method,
          url: path,
          search: new URL(request.url).search,
          body: text ? (json ? JSON.parse(text) : text) : undefined,
          ifMatch: request.headers.get('if-match') ?? undefined,
          idempotencyKey: request.headers.get('idempotency-key') ?? undefined,
        });
        if (answer === 'network error') return HttpResponse.error();
        const current = Array.isArray(answer) ? answer[Math.min(served++, answer.length - 1)]! : answer;
        await current.after;
        return HttpResponse.json(current.body as object, { status: current.status ?? 200, headers: current.headers });
      },
    );
  });
  apiServer.use(...handlers);
  return calls;
}

// Spec section 4's sessions, and what happens when one ends.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { heldAnswer, refusal, renderWithProviders, SIGNED_IN_CLIENT, SIGNED_OUT, stubApi, UNAUTHORIZED } from '../../test/render';
import {
  api,
  RENEWAL_SETTLES_MS,
  refreshSession,
  retryAfterMs,
  SESSION_EXPIRED,
  sessionEvents,
  withSession,
  withSessionRenewal,
} from '../api/client';
import LoginPage from '../features/auth/login-page';
import { useSession } from './session';
import { storage } from './storage';

function UserType() {
  return <p>user type {useSession().userType}</p>;
}

const REFRESHES_SPENT = 'Too many refreshes. Please try again later.';
/** The shop's 429 to a session whose refreshes for the hour are spent, asking to wait `seconds`. */
const refreshesSpent = (seconds: number) => ({
  status: 429,
  headers: { 'Retry-After': String(seconds) },
  body: { data: null, error: { code: 'RATE_LIMITED', message: REFRESHES_SPENT } },
});

/** Signs a client in again, as the login screen does once the shop said yes. */
function SignInAgain() {
  const { signedIn } = useSession();
  return (
    <button type="button" onClick={() => signedIn('Client')}>
      Sign in again
    </button>
  );
}

function SignOut() {
  const { loggedIn, signOut } = useSession();
  return (
    <button type="button" onClick={() => void signOut()}>
      {loggedIn ? 'Sign Out' : 'Signed out'}
    </button>
  );
}

/** The back-office's dashboard, where an employee's session is checked, beside the login it may send them to. */
const renderDashboardBesideLogin = () =>
  renderWithProviders(
    <Routes>
      <Route path="/dashboard" element={<UserType />} />
      <Route path="/login" element={<LoginPage />} />
    </Routes>,
    { route: '/dashboard' },
  );

describe('sessions', () => {
  it('refreshes both sessions on start, whatever the stored user type', async () => {
    const calls = stubApi({
      'POST /api/public/authentication/refresh-tokens/Client': { body: { data: 'Client' } },
      'POST /api/public/authentication/refresh-tokens/Employee': UNAUTHORIZED,
    });
    renderWithProviders(<UserType />);
    await screen.findByText('user type Client');
    await vi.waitFor(() =>
      expect(calls.filter((c) => c.url.includes('/refresh-tokens/')).map((c) => c.url)).toEqual(
        expect.arrayContaining(['/api/public/authentication/refresh-tokens/Client', '/api/public/authentication/refresh-tokens/Employee']),
      ),
    );
  });

  it('an employee whose session has ended is sent to login, and told why', async () => {
    storage.setUserType('Admin');
    stubApi(SIGNED_OUT);
    renderDashboardBesideLogin();
    expect(await screen.findByText('Your session has ended. Please log in again.')).toBeInTheDocument();
    expect(storage.getUserType()).toBe('Client');
  });

  it('an employee whose refresh the shop could not answer (a restart, a blip) stays signed in, and is not sent to login', async () => {
    storage.setUserType('Admin');
    const calls = stubApi({
      'POST /api/public/authentication/refresh-tokens/Client': UNAUTHORIZED,
      'POST /api/public/authentication/refresh-tokens/Employee': {
        status: 503,
        body: { data: null, error: { code: 'UNAVAILABLE', message: 'The shop is briefly unavailable.' } },
      },
    });
    renderDashboardBesideLogin();
    await vi.waitFor(() => expect(calls.some((c) => c.url.endsWith('/Employee'))).toBe(true));
    expect(await screen.findByText('user type Admin')).toBeInTheDocument();
    expect(storage.getUserType()).toBe('Admin');
  });

  it('a shopper whose refresh fails in a blip is asked again 5 s later (within the reuse interval), and is signed in then', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'], shouldAdvanceTime: true });
    try {
      const calls = stubApi({
        'POST /api/public/authentication/refresh-tokens/Client': [
          { status: 503, body: { data: null, error: { code: 'UNAVAILABLE', message: 'The shop is briefly unavailable.' } } },
          { body: { data: 'Client' } },
        ],
        'POST /api/public/authentication/refresh-tokens/Employee': UNAUTHORIZED,
      });
      const { container } = renderWithProviders(<SignOut />);
      expect(await screen.findByRole('button', { name: 'Signed out' })).toBeInTheDocument();
      await vi.waitFor(() => expect(calls.filter((c) => c.url.endsWith('/Client'))).toHaveLength(1));
      await vi.advanceTimersByTimeAsync(1_000);
      // Still as it was: a blip says nothing of the session.
      expect(container).toHaveTextContent('Signed out');
      await vi.advanceTimersByTimeAsync(5_000);
      await vi.waitFor(() => expect(calls.filter((c) => c.url.endsWith('/Client')).length).toBeGreaterThan(1));
      expect(await screen.findByRole('button', { name: 'Sign Out' })).toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it('a shop that stays unreachable is asked 4 more times, 5 s apart (within the reuse interval), then once a minute until it answers', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'], shouldAdvanceTime: true });
    try {
      const down = { status: 503, body: { data: null, error: { code: 'UNAVAILABLE', message: 'The shop is briefly unavailable.' } } };
      const calls = stubApi({
        'POST /api/public/authentication/refresh-tokens/Client': down,
        'POST /api/public/authentication/refresh-tokens/Employee': UNAUTHORIZED,
      });
      renderWithProviders(<SignOut />);
      const asked = () => calls.filter((c) => c.url.endsWith('/Client')).length;
      await vi.waitFor(() => expect(asked()).toBe(1));
      for (let i = 2; i <= 5; i++) {
        await vi.advanceTimersByTimeAsync(5_000);
        await vi.waitFor(() => expect(asked()).toBe(i));
      }
      // No more at 5 s: the next is a minute later.
      await vi.advanceTimersByTimeAsync(30_000);
      expect(asked()).toBe(5);
      await vi.advanceTimersByTimeAsync(30_000);
      await vi.waitFor(() => expect(asked()).toBe(6));
    } finally {
      vi.useRealTimers();
    }
  });

  it('reads Retry-After as seconds or as a date, and takes no more than an hour of it', () => {
    const now = Date.parse('2026-11-30T12:00:00Z');
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Mon, 30 Nov 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Mon, 30 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('86400', now)).toBe(3_600_000);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });

  it("a refresh refused for a while (429 with Retry-After) is not asked again before then, by the timer or by a screen's call", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'], shouldAdvanceTime: true });
    try {
      const calls = stubApi({
        'POST /api/public/authentication/refresh-tokens/Client': [refreshesSpent(120), { body: { data: 'Client' } }],
        'POST /api/public/authentication/refresh-tokens/Employee': UNAUTHORIZED,
        'GET /api/client/cart': UNAUTHORIZED,
      });
      renderWithProviders(<SignOut />);
      const asked = () => calls.filter((c) => c.url.endsWith('/Client')).length;
      await vi.waitFor(() => expect(asked()).toBe(1));
      await vi.advanceTimersByTimeAsync(60_000);
      expect(asked()).toBe(1);
      // A screen's call meeting 401 is told why, without a refresh sent.
      await expect(withSession('Client', () => api.GET('/api/client/cart'))).rejects.toMatchObject({
        status: 429,
        message: REFRESHES_SPENT,
      });
      expect(asked()).toBe(1);
      await vi.advanceTimersByTimeAsync(61_000);
      await vi.waitFor(() => expect(asked()).toBe(2));
      expect(await screen.findByRole('button', { name: 'Sign Out' })).toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it("a session signed in after a refresh refused for an hour refreshes at once: the wait was the old session's", async () => {
    const calls = stubApi({
      'POST /api/public/authentication/refresh-tokens/Client': [refreshesSpent(3600), { body: { data: 'Client' } }],
      'POST /api/public/authentication/refresh-tokens/Employee': UNAUTHORIZED,
      'GET /api/client/cart': [UNAUTHORIZED, { body: { data: [] } }],
    });
    renderWithProviders(<SignInAgain />);
    const asked = () => calls.filter((c) => c.url.endsWith('/Client')).length;
    await vi.waitFor(() => expect(asked()).toBe(1));
    await userEvent.click(await screen.findByRole('button', { name: 'Sign in again' }));
    // The new session's first 401 refreshes it, rather than meeting the old session's wait.
    await expect(withSession('Client', () => api.GET('/api/client/cart'))).resolves.toEqual([]);
    expect(asked()).toBe(2);
  });

  it('a call whose refresh carried the tokens from before a step-up renewed them asks again a moment later, and goes on with the new ones', async () => {
    const renewed = refusal(401, 'SESSION_RENEWED', 'Your session was renewed. Please try again.');
    const ended = vi.fn();
    sessionEvents.addEventListener(SESSION_EXPIRED, ended);
    try {
      const calls = stubApi({
        'POST /api/public/authentication/refresh-tokens/Employee': [renewed, { body: { data: 'Admin' } }],
        'GET /api/employee/employee/': [UNAUTHORIZED, { body: { data: { id: 1 } } }],
      });
      const started = Date.now();
      await expect(withSession('Employee', () => api.GET('/api/employee/employee/'))).resolves.toEqual({ id: 1 });
      expect(calls.filter((c) => c.url.endsWith('/refresh-tokens/Employee'))).toHaveLength(2);
      expect(Date.now() - started).toBeGreaterThanOrEqual(RENEWAL_SETTLES_MS - 50);
      expect(ended).not.toHaveBeenCalled();
    } finally {
      sessionEvents.removeEventListener(SESSION_EXPIRED, ended);
    }
  });

  it("a call that renews the session's tokens holds this browser's refreshes back until it is answered", async () => {
    // The browser's Web Locks, as every tab shares them: one holder of a name at a time, the others in turn.
    const queues = new Map<string, Promise<unknown>>();
    const locks = {
      request: (name: string, callback: () => Promise<unknown>) => {
        const mine = (queues.get(name) ?? Promise.resolve()).then(callback);
        queues.set(
          name,
          mine.catch(() => {}),
        );
        return mine;
      },
    };
    vi.stubGlobal('navigator', { ...globalThis.navigator, locks });
    try {
      const stepUpAnswer = heldAnswer();
      const calls = stubApi({
        'POST /api/employee/second-factor/step-up': {
          body: { data: { stepUpUntil: '2026-12-01T10:00:00.000Z' } },
          after: stepUpAnswer.held,
        },
        'POST /api/public/authentication/refresh-tokens/Employee': { body: { data: 'Admin' } },
      });
      const answered: string[] = [];
      const stepUp = withSessionRenewal('Employee', () =>
        api.POST('/api/employee/second-factor/step-up', { body: { code: '123456' } }),
      ).then(() => answered.push('step-up'));
      await vi.waitFor(() => expect(calls.map((c) => c.url)).toContain('/api/employee/second-factor/step-up'));
      const refreshed = refreshSession('Employee').then(() => answered.push('refresh'));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(calls.filter((c) => c.url.includes('/refresh-tokens/'))).toEqual([]);
      stepUpAnswer.release();
      await Promise.all([stepUp, refreshed]);
      expect(answered).toEqual(['step-up', 'refresh']);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('a session whose refresh is still refused as renewed on the second ask has ended', async () => {
    const ended = vi.fn();
    sessionEvents.addEventListener(SESSION_EXPIRED, ended);
    try {
      const calls = stubApi({
        'POST /api/public/authentication/refresh-tokens/Employee': refusal(
          401,
          'SESSION_RENEWED',
          'Your session was renewed. Please try again.',
        ),
        'GET /api/employee/employee/': UNAUTHORIZED,
      });
      await expect(withSession('Employee', () => api.GET('/api/employee/employee/'))).rejects.toMatchObject({ status: 401 });
      expect(calls.filter((c) => c.url.endsWith('/refresh-tokens/Employee'))).toHaveLength(2);
      expect(ended).toHaveBeenCalledOnce();
    } finally {
      sessionEvents.removeEventListener(SESSION_EXPIRED, ended);
    }
  });

  it('a call whose session refresh the shop could not answer fails with that reason, and signs no one out', async () => {
    const ended = vi.fn();
    sessionEvents.addEventListener(SESSION_EXPIRED, ended);
    try {
      stubApi({
        'POST /api/public/authentication/refresh-tokens/Client': 'network error',
        'GET /api/client/cart': UNAUTHORIZED,
      });
      await expect(withSession('Client', () => api.GET('/api/client/cart'))).rejects.toMatchObject({
        status: 0,
        message: 'The shop cannot be reached. Please check your connection.',
      });
      expect(ended).not.toHaveBeenCalled();
    } finally {
      sessionEvents.removeEventListener(SESSION_EXPIRED, ended);
    }
  });

  it('signing out forgets the shipping address kept for checkout: the next shopper on this browser does not see it', async () => {
    storage.setShippingAddress('12 Rue Didouche Mourad, Alger');
    stubApi({ ...SIGNED_IN_CLIENT, 'DELETE /api/public/authentication/cookies/': { body: { data: true } } });
    renderWithProviders(<SignOut />);
    await userEvent.click(await screen.findByRole('button', { name: 'Sign Out' }));
    await screen.findByRole('button', { name: 'Signed out' });
    expect(storage.getShippingAddress()).toBe('');
  });

  it('a shopper whose session ends while away has the shipping address forgotten too', async () => {
    storage.setShippingAddress('12 Rue Didouche Mourad, Alger');
    stubApi(SIGNED_IN_CLIENT);
    renderWithProviders(<SignOut />);
    await screen.findByRole('button', { name: 'Sign Out' });
    sessionEvents.dispatchEvent(new CustomEvent(SESSION_EXPIRED, { detail: 'Client' }));
    await screen.findByRole('button', { name: 'Signed out' });
    expect(storage.getShippingAddress()).toBe('');
  });

  it('login returns a shopper to the page that sent them there', async () => {
    stubApi({ ...SIGNED_OUT, 'POST /api/public/authentication/login': { body: { data: 'Client' } } });
    renderWithProviders(
      <Routes>
        <Route path="/login" element={<LoginPage />} />
        <Route path="/Fantasy" element={<p>The Fantasy shelf</p>} />
      </Routes>,
      { route: '/login', state: { from: '/Fantasy' } },
    );
    await userEvent.type(screen.getByLabelText('Account'), 'reader@example.com');
    await userEvent.type(screen.getByLabelText(/Password/), 'a long passphrase');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('The Fantasy shelf')).toBeInTheDocument();
  });

  it("a sign-in starts with no shipping address kept from before: not the last shopper's on a shared browser", async () => {
    // Theirs, from a session that ended with the shop closed: nothing forgot it then.
    storage.setShippingAddress('12 Rue Didouche Mourad, Alger');
    stubApi({ ...SIGNED_OUT, 'POST /api/public/authentication/login': { body: { data: 'Client' } } });
    renderWithProviders(
      <Routes>
        <Route path="/login" element={<LoginPage />} />
        <Route path="/" element={<p>The home page</p>} />
      </Routes>,
      { route: '/login' },
    );
    expect(storage.getShippingAddress()).toBe('12 Rue Didouche Mourad, Alger');
    await userEvent.type(screen.getByLabelText('Account'), 'reader@example.com');
    await userEvent.type(screen.getByLabelText(/Password/), 'a long passphrase');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('The home page')).toBeInTheDocument();
    expect(storage.getShippingAddress()).toBe('');
  });
});

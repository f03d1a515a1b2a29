// The back-office's own rules over its screens: an Admin who must set up a second factor is kept on the
// Account screen, and no other screen asks the API for anything before that is known; a Seller's
// menu holds only their screens, and an Admin's screen sends them to the dashboard.
import { screen, within } from '@testing-library/react';
import { expect, it, vi } from 'vitest';
import { anEmployee, THIS_SESSION_ONLY } from '../../test/people';
import { heldAnswer, renderWithProviders, SIGNED_IN_ADMIN, SIGNED_IN_SELLER, stubApi } from '../../test/render';
import { storage } from '../lib/storage';
import BackOffice from './back-office';

const factor = (required: boolean) => ({
  body: { data: { totp: false, passkeys: [], recoveryCodesLeft: 0, required, stepUpUntil: null } },
});

it('an Admin who must set up a second factor goes to the Account screen, and the dashboard asks for nothing first', async () => {
  storage.setUserType('Admin');
  const answered = heldAnswer();
  const calls = stubApi({
    ...SIGNED_IN_ADMIN,
    'GET /api/employee/second-factor': { ...factor(true), after: answered.held },
    'GET /api/employee/employee/': { body: { data: anEmployee({ id: 1, type: 'Admin' }) } },
    'GET /api/employee/sessions/': THIS_SESSION_ONLY,
  });
  renderWithProviders(<BackOffice />, { route: '/dashboard' });
  await vi.waitFor(() => expect(calls.some((c) => c.url === '/api/employee/second-factor')).toBe(true));
  // Long enough for the dashboard's screen to load and ask for its figures, were it shown meanwhile.
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(screen.getByText('Loading...')).toBeInTheDocument();
  answered.release();
  expect(await screen.findByRole('heading', { name: 'Your Information' })).toBeInTheDocument();
  expect(calls.filter((c) => c.url.startsWith('/api/employee/statistics'))).toEqual([]);
});

it("a Seller's menu holds Dashboard, Orders, Low Stock and Account, and an Admin's screen sends them to the dashboard", async () => {
  storage.setUserType('Seller');
  const calls = stubApi({
    ...SIGNED_IN_SELLER,
    'GET /api/employee/second-factor': factor(false),
    // The dashboard it lands on, failing to load: this test reads the menu and the address alone.
    'GET /api/employee/statistics': { status: 500, body: { data: null } },
    'GET /api/employee/statistics/resent-orders/': { status: 500, body: { data: null } },
    'GET /api/employee/statistics/new-clients/': { status: 500, body: { data: null } },
  });
  renderWithProviders(<BackOffice />, { route: '/employees' });
  const menu = await screen.findByRole('navigation', { name: 'Back-office' });
  expect(
    within(menu)
      .getAllByRole('link')
      .map((link) => link.textContent),
  ).toEqual(['Dashboard', 'Orders', 'Low Stock', 'Account']);
  await vi.waitFor(() => expect(within(menu).getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page'));
  expect(calls.filter((c) => c.url.startsWith('/api/employee/employees'))).toEqual([]);
});

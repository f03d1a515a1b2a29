// Forgot password: the request says the same for any e-mail and stays on screen; the reset screen
// checks the two passwords before sending, and tells a spent link from a refused password.
import { FORM_MESSAGES } from '@bookshop/rules';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it, vi } from 'vitest';
import { findStatusSaying, renderWithProviders, SIGNED_OUT, stubApi } from '../../../test/render';
import { NOTICE_MS } from '../../lib/constants';
import ForgotPasswordPage from './forgot-password-page';
import LoginPage from './login-page';
import ResetPasswordPage from './reset-password-page';

it('the login screen offers Forgot password?', () => {
  stubApi(SIGNED_OUT);
  renderWithProviders(<LoginPage />, { route: '/login' });
  expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/forgot-password');
});

afterEach(() => vi.useRealTimers());

it('asks for a valid e-mail, then says a link is on its way, and the message stays', async () => {
  // On the clock, not by waiting: past the time a notice would have gone (NOTICE_MS), this one stays.
  vi.useFakeTimers({ shouldAdvanceTime: true });
  const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
  const calls = stubApi({ ...SIGNED_OUT, 'POST /api/public/password-reset/request': { body: { data: FORM_MESSAGES.resetRequested } } });
  renderWithProviders(<ForgotPasswordPage />, { route: '/forgot-password' });
  await user.type(screen.getByLabelText('Email'), 'nadia@');
  await user.click(screen.getByRole('button', { name: 'Send reset link' }));
  expect(await screen.findByRole('alert')).toHaveTextContent(FORM_MESSAGES.emailInvalid);
  expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
  expect(screen.getByLabelText('Email')).toHaveAccessibleDescription(FORM_MESSAGES.emailInvalid);
  expect(calls.filter((c) => c.url.includes('password-reset'))).toEqual([]);

  await user.type(screen.getByLabelText('Email'), 'example.com');
  await user.click(screen.getByRole('button', { name: 'Send reset link' }));
  // In the form's place, with the focus its button had.
  expect(await findStatusSaying(FORM_MESSAGES.resetRequested)).toHaveFocus();
  expect(calls.at(-1)).toMatchObject({ url: '/api/public/password-reset/request', body: { account: 'nadia@example.com' } });
  await act(() => vi.advanceTimersByTimeAsync(NOTICE_MS + 200));
  expect(await findStatusSaying(FORM_MESSAGES.resetRequested)).toBeInTheDocument();
});

const RESET_ROUTE = '/reset-password?mode=resetPassword&oobCode=code-1&apiKey=k&lang=en';

it('checks both passwords before sending, then sends the code and says the password changed', async () => {
  const calls = stubApi({ ...SIGNED_OUT, 'POST /api/public/password-reset': { body: { data: FORM_MESSAGES.passwordReset } } });
  renderWithProviders(<ResetPasswordPage />, { route: RESET_ROUTE });
  await userEvent.type(screen.getByLabelText('New password'), 'Lantern-Harbor-92');
  await userEvent.type(screen.getByLabelText('Confirm new password'), 'Lantern-Harbor-93');
  await userEvent.click(screen.getByRole('button', { name: 'Set new password' }));
  expect(await screen.findByRole('alert')).toHaveTextContent(FORM_MESSAGES.passwordsDiffer);
  // The second field is the one refused (the first is fine), and has the focus.
  expect(screen.getByLabelText('Confirm new password')).toBeInvalid();
  expect(screen.getByLabelText('Confirm new password')).toHaveFocus();
  expect(screen.getByLabelText('New password')).toBeValid();
  // Mended in the first field instead, the second is no longer marked: the match is checked again.
  await userEvent.clear(screen.getByLabelText('New password'));
  await userEvent.type(screen.getByLabelText('New password'), 'Lantern-Harbor-93');
  // (The rules run again as the field changes, the password's list loaded on demand: awaited.)
  await vi.waitFor(() => expect(screen.getByLabelText('Confirm new password')).toBeValid());
  await userEvent.clear(screen.getByLabelText('New password'));
  await userEvent.type(screen.getByLabelText('New password'), 'Lantern-Harbor-92');

  await userEvent.clear(screen.getByLabelText('Confirm new password'));
  await userEvent.type(screen.getByLabelText('Confirm new password'), 'Lantern-Harbor-92');
  await userEvent.click(screen.getByRole('button', { name: 'Set new password' }));
  expect(await findStatusSaying(FORM_MESSAGES.passwordReset)).toHaveFocus();
  expect(calls.at(-1)).toMatchObject({ body: { oobCode: 'code-1', newPassword: 'Lantern-Harbor-92' } });
  expect(screen.getByRole('link', { name: 'Go to Login' })).toHaveAttribute('href', '/login');
}, 10_000);

it('a used or expired link asks for a new one; a link without a code is not a form at all', async () => {
  stubApi({
    ...SIGNED_OUT,
    'POST /api/public/password-reset': {
      status: 400,
      body: {
        data: null,
        error: { code: 'RESET_CODE_REFUSED', message: 'This reset link is invalid, used or expired. Please ask for a new one.' },
      },
    },
  });
  const view = renderWithProviders(<ResetPasswordPage />, { route: RESET_ROUTE });
  await userEvent.type(screen.getByLabelText('New password'), 'Lantern-Harbor-92');
  await userEvent.type(screen.getByLabelText('Confirm new password'), 'Lantern-Harbor-92');
  await userEvent.click(screen.getByRole('button', { name: 'Set new password' }));
  expect(await screen.findByRole('link', { name: 'Ask for a new link' })).toHaveAttribute('href', '/forgot-password');
  view.unmount();

  renderWithProviders(<ResetPasswordPage />, { route: '/reset-password' });
  expect(screen.getByText('This reset link is invalid, used or expired. Please ask for a new one.')).toBeInTheDocument();
  expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
});

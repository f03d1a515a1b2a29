// The provider has one action URL for all its e-mails: the sign-up's verification link comes to the
// reset screen's address too, and verifies the e-mail there, where it said the reset link was invalid.
import { screen } from '@testing-library/react';
import { beforeEach, expect, it, vi } from 'vitest';
import { renderWithProviders, SIGNED_OUT, stubApi } from '../../../test/render';
import ProviderActionPage from './reset-password-page';
import { VERIFY_EMAIL_TEXT } from './verify-email';

const applyEmailVerification = vi.fn<(oobCode: string) => Promise<void>>();
vi.mock('./identity', () => ({ applyEmailVerification: (code: string) => applyEmailVerification(code) }));

beforeEach(() => {
  applyEmailVerification.mockReset();
  stubApi(SIGNED_OUT);
});

it("a verification e-mail's link spends its code at the provider, once, and sends the shopper back to finish signing up", async () => {
  applyEmailVerification.mockResolvedValue();
  renderWithProviders(<ProviderActionPage />, { route: '/reset-password?mode=verifyEmail&oobCode=verify-1&apiKey=k&lang=en' });
  expect(await screen.findByText(VERIFY_EMAIL_TEXT.verified)).toBeInTheDocument();
  expect(applyEmailVerification.mock.calls).toEqual([['verify-1']]);
  expect(screen.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/signup');
  expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
});

it('a verification link the provider refuses (used, expired) says so, and how to get a new one', async () => {
  applyEmailVerification.mockRejectedValue(
    Object.assign(new Error('Firebase: Error (auth/invalid-action-code).'), { code: 'auth/invalid-action-code' }),
  );
  renderWithProviders(<ProviderActionPage />, { route: '/reset-password?mode=verifyEmail&oobCode=spent' });
  expect(await screen.findByText(VERIFY_EMAIL_TEXT.refused)).toBeInTheDocument();
});

it('a reset link still opens the form for a new password', async () => {
  renderWithProviders(<ProviderActionPage />, { route: '/reset-password?mode=resetPassword&oobCode=code-1' });
  expect(await screen.findByLabelText('New password')).toBeInTheDocument();
  expect(applyEmailVerification).not.toHaveBeenCalled();
});

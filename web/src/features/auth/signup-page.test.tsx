// Sign up (spec 2.9): once the provider has the account, the verification step takes the form's place,
// and the focus goes to its heading, so a screen reader and the keyboard go on from there.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it, vi } from 'vitest';
import { renderWithProviders, SIGNED_OUT, stubApi } from '../../../test/render';
import { resendVerification } from './identity';
import SignUpPage from './signup-page';

vi.mock('./identity', () => ({
  createOrResumeIdentity: vi.fn(async () => ({ verified: false })),
  providerMessage: () => 'The provider refused.',
  providerReason: (error: Error) => `The provider says: ${error.message}`,
  resendVerification: vi.fn(),
}));

/** Fills the form and presses Sign up, as Nora does. */
async function signUp() {
  stubApi(SIGNED_OUT);
  renderWithProviders(<SignUpPage />, { route: '/signup' });
  await userEvent.type(screen.getByLabelText('First Name'), 'Nora');
  await userEvent.type(screen.getByLabelText('Last Name'), 'Reader');
  await userEvent.type(screen.getByLabelText('Email (Account)'), 'nora@example.com');
  // Named by its label alone; the rules are its description.
  const password = screen.getByLabelText('Password');
  expect(password).toHaveAccessibleDescription(/^At least 8 characters/);
  await userEvent.type(password, 'a long private phrase');
  await userEvent.type(screen.getByLabelText('Algerian Phone Number'), '0661234567');
  await userEvent.click(screen.getByRole('button', { name: 'Sign up' }));
}

it('after Sign up, the verification step says what to do, and has the focus', async () => {
  await signUp();
  const heading = await screen.findByRole('heading', { name: 'Verify your e-mail' });
  expect(heading).toHaveFocus();
  expect(screen.getByText(/A verification email has been sent to your account in inbox or junk\/spam folder/)).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'I Verified My Email' })).toBeInTheDocument();
});

it('Resend Verification Email asks the provider once however often it is pressed meanwhile', async () => {
  let sent = () => {};
  vi.mocked(resendVerification).mockImplementationOnce(() => new Promise<void>((done) => (sent = done)));
  await signUp();
  const resend = await screen.findByRole('button', { name: 'Resend Verification Email' });
  await userEvent.dblClick(resend);
  expect(resend).toHaveAttribute('aria-disabled', 'true');
  sent();
  expect(await screen.findByText('Verification email resent.')).toBeInTheDocument();
  expect(resendVerification).toHaveBeenCalledTimes(1);
  expect(resend).not.toHaveAttribute('aria-disabled');
});

it("a resend the provider refuses says so with the provider's reason (too many attempts: wait, not click again)", async () => {
  vi.mocked(resendVerification).mockRejectedValueOnce(new Error('too many attempts'));
  await signUp();
  await userEvent.click(await screen.findByRole('button', { name: 'Resend Verification Email' }));
  const failure = await screen.findByRole('alert');
  expect(failure).toHaveTextContent('Failed to resend verification email.');
  expect(failure).toHaveTextContent('The provider says: too many attempts');
});

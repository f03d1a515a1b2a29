// Sign up (spec 2.9): once the provider has the account, the verification step takes the form's place,
// and the focus goes to its heading, so a screen reader and the keyboard go on from there.

import { FORM_MESSAGES } from '@bookshop/rules';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it, vi } from 'vitest';
import { renderWithProviders, SIGNED_OUT, stubApi } from '../../../test/render';
import { PASSWORD_HINT } from '../../lib/password-rules';
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

it('a refused form marks the fields it is about, described by its message, with the focus on the first', async () => {
  stubApi(SIGNED_OUT);
  renderWithProviders(<SignUpPage />, { route: '/signup' });
  await userEvent.type(screen.getByLabelText('First Name'), 'Nora');
  await userEvent.type(screen.getByLabelText('Algerian Phone Number'), '0661234567');
  await userEvent.click(screen.getByRole('button', { name: 'Sign up' }));
  expect(await screen.findByRole('alert')).toHaveTextContent(FORM_MESSAGES.allFieldsRequired);
  const lastName = screen.getByLabelText('Last Name');
  expect(lastName).toHaveFocus();
  for (const blank of ['Last Name', 'Email (Account)']) {
    expect(screen.getByLabelText(blank)).toBeInvalid();
    expect(screen.getByLabelText(blank)).toHaveAccessibleDescription(FORM_MESSAGES.allFieldsRequired);
  }
  // After its own hint.
  expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(`${PASSWORD_HINT} ${FORM_MESSAGES.allFieldsRequired}`);
  expect(screen.getByLabelText('First Name')).toBeValid();
  expect(screen.getByLabelText('Algerian Phone Number')).toBeValid();
  // Filled in, a field is no longer marked.
  await userEvent.type(lastName, 'Reader');
  await vi.waitFor(() => expect(lastName).toBeValid());
  expect(lastName).not.toHaveAccessibleDescription();
});

it('a phone number that is not Algerian is the field marked, where the focus goes', async () => {
  stubApi(SIGNED_OUT);
  renderWithProviders(<SignUpPage />, { route: '/signup' });
  await userEvent.type(screen.getByLabelText('First Name'), 'Nora');
  await userEvent.type(screen.getByLabelText('Last Name'), 'Reader');
  await userEvent.type(screen.getByLabelText('Email (Account)'), 'nora@example.com');
  await userEvent.type(screen.getByLabelText('Password'), 'a long private phrase');
  await userEvent.type(screen.getByLabelText('Algerian Phone Number'), '0812345678');
  await userEvent.click(screen.getByRole('button', { name: 'Sign up' }));
  expect(await screen.findByRole('alert')).toHaveTextContent(FORM_MESSAGES.signUpPhone);
  const phone = screen.getByLabelText('Algerian Phone Number');
  expect(phone).toHaveFocus();
  expect(phone).toBeInvalid();
  expect(phone).toHaveAccessibleDescription(FORM_MESSAGES.signUpPhone);
  expect(screen.getAllByRole('textbox').filter((field) => field.getAttribute('aria-invalid') === 'true')).toEqual([phone]);
});

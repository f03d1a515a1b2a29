// Sign up (spec 2.9): once the provider has the account, the verification step takes the form's place,
// and the focus goes to its heading, so a screen reader and the keyboard go on from there.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it, vi } from 'vitest';
import { renderWithProviders, SIGNED_OUT, stubApi } from '../../../test/render';
import SignUpPage from './signup-page';

vi.mock('./identity', () => ({
  createOrResumeIdentity: vi.fn(async () => ({ verified: false })),
  providerMessage: () => 'The provider refused.',
  resendVerification: vi.fn(),
}));

it('after Sign up, the verification step says what to do, and has the focus', async () => {
  stubApi(SIGNED_OUT);
  renderWithProviders(<SignUpPage />, { route: '/signup' });
  await userEvent.type(screen.getByLabelText('First Name'), 'Nora');
  await userEvent.type(screen.getByLabelText('Last Name'), 'Reader');
  await userEvent.type(screen.getByLabelText('Email (Account)'), 'nora@example.com');
  await userEvent.type(screen.getByLabelText(/^Password/), 'a long private phrase');
  await userEvent.type(screen.getByLabelText('Algerian Phone Number'), '0661234567');
  await userEvent.click(screen.getByRole('button', { name: 'Sign up' }));
  const heading = await screen.findByRole('heading', { name: 'Verify your e-mail' });
  expect(heading).toHaveFocus();
  expect(screen.getByText(/A verification email has been sent to your account in inbox or junk\/spam folder/)).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'I Verified My Email' })).toBeInTheDocument();
});

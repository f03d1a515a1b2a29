// The login screen says "Invalid account or password." only when the server refused them.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it } from 'vitest';
import { refusal, renderWithProviders, SIGNED_OUT, stubApi } from '../../../test/render';
import LoginPage from './login-page';

async function logIn() {
  renderWithProviders(<LoginPage />, { route: '/login' });
  await userEvent.type(screen.getByLabelText('Account'), 'reader@example.com');
  await userEvent.type(screen.getByLabelText(/Password/), 'a long passphrase');
  await userEvent.click(screen.getByRole('button', { name: 'Login' }));
}

it('a network failure says the shop cannot be reached', async () => {
  stubApi({ ...SIGNED_OUT, 'POST /api/public/authentication/login': 'network error' });
  await logIn();
  expect(await screen.findByRole('alert')).toHaveTextContent('The shop cannot be reached. Please check your connection.');
});

it('refused credentials read as such', async () => {
  stubApi({
    ...SIGNED_OUT,
    'POST /api/public/authentication/login': refusal(401, 'INVALID_CREDENTIALS', 'Wrong e-mail or password.'),
  });
  await logIn();
  expect(await screen.findByRole('alert')).toHaveTextContent('Invalid account or password.');
});

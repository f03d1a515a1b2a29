// The sign-in's second step: a password that needs a second factor leads there with no session yet;
// a wrong code is said and can be typed again, the right one opens the back-office; a step that
// has expired goes back to the login screen.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { expect, it } from 'vitest';
import { Address, refusal, renderRoute, renderWithProviders, SIGNED_OUT, stubApi } from '../../../test/render';
import { paths } from '../../lib/paths';
import LoginPage from './login-page';
import SecondFactorPage from './second-factor-page';

const address = () => screen.getByRole('status', { name: 'address' });
const OPTIONS = { body: { data: { totp: true, recoveryCodes: true, passkey: null } } };

it('a password that needs a second factor leads to the second step', async () => {
  stubApi({ ...SIGNED_OUT, 'POST /api/public/authentication/login': { body: { data: 'SecondFactor' } } });
  renderRoute(paths.login, <LoginPage />, paths.login);
  await userEvent.type(screen.getByLabelText('Account'), 'admin@bookshop.test');
  await userEvent.type(screen.getByLabelText(/Password/), 'a long passphrase');
  await userEvent.click(screen.getByRole('button', { name: 'Login' }));
  await expect.poll(() => address().textContent).toBe(paths.secondFactor);
});

it('the second step says a wrong code, and the right one opens the back-office', async () => {
  const calls = stubApi({
    ...SIGNED_OUT,
    'POST /api/public/authentication/second-factor/options': OPTIONS,
    'POST /api/public/authentication/second-factor': [
      refusal(400, 'WRONG_SECOND_FACTOR', 'That code or passkey was not accepted. Please try again.'),
      { body: { data: 'Admin' } },
    ],
  });
  renderRoute(paths.secondFactor, <SecondFactorPage />, paths.secondFactor);
  const code = await screen.findByLabelText('Code from your authenticator app, or a recovery code');
  // No passkeys, no passkey button.
  expect(screen.queryByRole('button', { name: 'Use a passkey' })).not.toBeInTheDocument();
  await userEvent.type(code, '000000');
  await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('That code or passkey was not accepted.');
  expect(code).toBeInvalid();
  expect(code).toHaveAccessibleDescription('That code or passkey was not accepted. Please try again.');
  // Another code typed is not the one refused.
  await userEvent.clear(code);
  expect(code).toHaveAttribute('aria-invalid', 'false');
  await userEvent.type(code, '123456');
  await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
  await expect.poll(() => address().textContent).toBe(paths.backoffice.dashboard);
  expect(calls.filter((c) => c.url.endsWith('/second-factor')).map((c) => c.body)).toEqual([{ code: '000000' }, { code: '123456' }]);
});

it('an expired step goes back to the login screen', async () => {
  stubApi({
    ...SIGNED_OUT,
    'POST /api/public/authentication/second-factor/options': refusal(
      401,
      'SECOND_FACTOR_EXPIRED',
      'This sign-in has expired. Please sign in again.',
    ),
  });
  renderRoute(paths.secondFactor, <SecondFactorPage />, paths.secondFactor);
  await expect.poll(() => address().textContent).toBe(paths.login);
});

it("a sign-in begun again asks for its own step's options: never the last step's, whose passkey challenge is spent", async () => {
  const WITH_PASSKEY = {
    body: { data: { totp: true, recoveryCodes: true, passkey: { challenge: 'fresh-challenge', allowCredentials: [], rpId: 'localhost' } } },
  };
  const calls = stubApi({
    ...SIGNED_OUT,
    'POST /api/public/authentication/login': { body: { data: 'SecondFactor' } },
    'POST /api/public/authentication/second-factor/options': [OPTIONS, WITH_PASSKEY],
    'POST /api/public/authentication/second-factor': refusal(
      401,
      'SECOND_FACTOR_EXPIRED',
      'This sign-in has expired. Please sign in again.',
    ),
  });
  renderWithProviders(
    <>
      <Routes>
        <Route path={paths.login} element={<LoginPage />} />
        <Route path={paths.secondFactor} element={<SecondFactorPage />} />
      </Routes>
      <Address />
    </>,
    { route: paths.secondFactor },
  );
  // The first step expires while the employee is away: back to the login.
  await userEvent.type(await screen.findByLabelText('Code from your authenticator app, or a recovery code'), '123456');
  await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
  await expect.poll(() => address().textContent).toBe(paths.login);
  await userEvent.type(screen.getByLabelText('Account'), 'admin@bookshop.test');
  await userEvent.type(screen.getByLabelText(/Password/), 'a long passphrase');
  await userEvent.click(screen.getByRole('button', { name: 'Login' }));
  expect(await screen.findByRole('button', { name: 'Use a passkey' })).toBeInTheDocument();
  expect(calls.filter((c) => c.url.endsWith('/second-factor/options'))).toHaveLength(2);
});

it('a passkey that was not used is said without marking the code field, which was not what was refused', async () => {
  const passkey = { challenge: 'c2lnbi1pbg', allowCredentials: [], userVerification: 'required', rpId: 'localhost', timeout: 60_000 };
  stubApi({
    ...SIGNED_OUT,
    'POST /api/public/authentication/second-factor/options': { body: { data: { totp: true, recoveryCodes: true, passkey } } },
  });
  renderRoute(paths.secondFactor, <SecondFactorPage />, paths.secondFactor);
  const code = await screen.findByLabelText('Code from your authenticator app, or a recovery code');
  // No WebAuthn here (jsdom), as in a browser without it: the passkey is not used.
  await userEvent.click(screen.getByRole('button', { name: 'Use a passkey' }));
  expect(await screen.findByRole('alert')).toHaveTextContent(/passkey/);
  // (Not marked by aria-invalid; the field is still empty, which its `required` says.)
  expect(code).toHaveAttribute('aria-invalid', 'false');
  expect(code).not.toHaveAccessibleDescription();
});

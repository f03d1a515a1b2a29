// Account, "Change password": sent once however often it is submitted, from the first submit on (the
// check before the call loads the common-password list, and a second submit meanwhile sent the old
// password the first had just replaced, so a success was followed by 'Failed to change password.').

import { FORM_MESSAGES, PASSWORD_MESSAGES } from '@bookshop/rules';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it } from 'vitest';
import { CLIENT_ACCOUNT_READS, THIS_SESSION_ONLY } from '../../../test/people';
import { renderWithProviders, SIGNED_IN_CLIENT, stubApi } from '../../../test/render';
import { PASSWORD_HINT } from '../../lib/password-rules';
import AccountPage from './account-page';

it('sends a password change once for a double click, and says it changed', async () => {
  let answer = (_: unknown) => {};
  const calls = stubApi({
    'GET /api/client/manage/sessions/': THIS_SESSION_ONLY,
    ...SIGNED_IN_CLIENT,
    ...CLIENT_ACCOUNT_READS,
    'PUT /api/client/manage/password/': { body: { data: 'Password changed successfully!' }, after: new Promise((done) => (answer = done)) },
  });
  renderWithProviders(<AccountPage />, { route: '/account' });
  await userEvent.click(await screen.findByRole('button', { name: 'Change password' }));
  await userEvent.type(screen.getByLabelText('Current password'), 'Reader123!');
  // Its name is the label alone; the rules are its description.
  const newPassword = screen.getByLabelText('New password');
  expect(newPassword).toHaveAccessibleDescription(/^At least 8 characters/);
  await userEvent.type(newPassword, 'Lantern-Harbor-92');
  const submit = screen.getByRole('button', { name: 'Change Password' });
  await userEvent.dblClick(submit);
  expect(submit).toHaveAttribute('aria-disabled', 'true');
  answer(null);
  expect(await screen.findByText('Password changed successfully!')).toBeInTheDocument();
  expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1);
  expect(screen.queryByText('Failed to change password.')).not.toBeInTheDocument();
});

it('a refused change marks the password it is about: both when both are missing, then the new one when it is too common', async () => {
  const calls = stubApi({ 'GET /api/client/manage/sessions/': THIS_SESSION_ONLY, ...SIGNED_IN_CLIENT, ...CLIENT_ACCOUNT_READS });
  renderWithProviders(<AccountPage />, { route: '/account' });
  await userEvent.click(await screen.findByRole('button', { name: 'Change password' }));
  await userEvent.click(screen.getByRole('button', { name: 'Change Password' }));
  expect(await screen.findByRole('alert')).toHaveTextContent(FORM_MESSAGES.passwordsMissing);
  const current = screen.getByLabelText('Current password');
  const newPassword = screen.getByLabelText('New password');
  expect(current).toHaveFocus();
  expect(current).toBeInvalid();
  expect(current).toHaveAccessibleDescription(FORM_MESSAGES.passwordsMissing);
  expect(newPassword).toBeInvalid();

  await userEvent.type(current, 'Reader123!');
  await userEvent.type(newPassword, 'password123');
  await userEvent.click(screen.getByRole('button', { name: 'Change Password' }));
  await expect.poll(() => newPassword.getAttribute('aria-invalid')).toBe('true');
  expect(newPassword).toHaveFocus();
  expect(current).toBeValid();
  expect(newPassword).toHaveAccessibleDescription(`${PASSWORD_HINT} ${PASSWORD_MESSAGES.common}`);
  expect(calls.filter((c) => c.method === 'PUT')).toEqual([]);
});

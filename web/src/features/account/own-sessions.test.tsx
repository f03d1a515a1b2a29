// Account, "Your sessions": where the client is signed in, and ending the others with the password.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it } from 'vitest';
import { aSession, CLIENT_ACCOUNT_READS } from '../../../test/people';
import { refusal, renderWithProviders, SIGNED_IN_CLIENT, stubApi } from '../../../test/render';
import AccountPage from './account-page';

const laptop = aSession();
const phone = aSession({ id: '0b0c5e3a-7c1d-4c7e-9a53-2f1d6a0e0002', device: 'Chrome on Android', current: false });
const unknown = aSession({ id: '0b0c5e3a-7c1d-4c7e-9a53-2f1d6a0e0003', device: null, current: false });
const accountAnswers = { ...SIGNED_IN_CLIENT, ...CLIENT_ACCOUNT_READS };

it('lists where the client is signed in, this browser marked, and ends another once the password is given', async () => {
  const calls = stubApi({
    ...accountAnswers,
    // Read again after the end: the phone is gone.
    'GET /api/client/manage/sessions/': [{ body: { data: [laptop, phone, unknown] } }, { body: { data: [laptop, unknown] } }],
    'POST /api/client/manage/sessions/end': [
      refusal(400, 'WRONG_PASSWORD', 'The current password is incorrect.'),
      { body: { data: { ended: 1 } } },
    ],
  });
  renderWithProviders(<AccountPage />, { route: '/account' });
  const list = await screen.findByRole('list');
  const rows = within(list).getAllByRole('listitem');
  expect(rows.map((row) => row.querySelector('strong')?.textContent)).toEqual(['Firefox on Linux', 'Chrome on Android', 'Unknown browser']);
  expect(within(rows[0]!).getByText('This session')).toBeInTheDocument();
  // The session in use is ended by signing out, not here.
  expect(within(rows[0]!).queryByRole('button')).not.toBeInTheDocument();

  await userEvent.click(screen.getByRole('button', { name: /^End session: Chrome on Android, last active / }));
  const form = screen.getByRole('form', { name: 'End sessions' });
  // The form names the session, and the password is where the typing goes.
  expect(form).toHaveTextContent(/^Enter your password to end the session on Chrome on Android, last active /);
  expect(within(form).getByLabelText('Password')).toHaveFocus();
  await userEvent.click(within(form).getByRole('button', { name: 'End 1 session' }));
  expect(await screen.findByText('Enter your password to end sessions.')).toBeInTheDocument();
  expect(calls.filter((c) => c.url.endsWith('/end'))).toHaveLength(0);

  await userEvent.type(within(form).getByLabelText('Password'), 'not-my-password');
  await userEvent.click(within(form).getByRole('button', { name: 'End 1 session' }));
  expect(await screen.findByText('Failed to end sessions.')).toBeInTheDocument();
  expect(screen.getByText('The current password is incorrect.')).toBeInTheDocument();

  await userEvent.clear(within(form).getByLabelText('Password'));
  await userEvent.type(within(form).getByLabelText('Password'), 'my-password');
  await userEvent.click(within(form).getByRole('button', { name: 'End 1 session' }));
  expect(await screen.findByText('Ended 1 session.')).toBeInTheDocument();
  expect(screen.queryByRole('form', { name: 'End sessions' })).not.toBeInTheDocument();
  expect(calls.filter((c) => c.url.endsWith('/end')).at(-1)?.body).toEqual({ sessionIds: [phone.id], password: 'my-password' });
  expect(await screen.findByRole('button', { name: /^End session: Unknown browser, last active / })).toBeInTheDocument();
  expect(screen.queryByText('Chrome on Android')).not.toBeInTheDocument();
});

it('ends every other session at once', async () => {
  const calls = stubApi({
    ...accountAnswers,
    'GET /api/client/manage/sessions/': [{ body: { data: [laptop, phone, unknown] } }, { body: { data: [laptop] } }],
    'POST /api/client/manage/sessions/end': { body: { data: { ended: 2 } } },
  });
  renderWithProviders(<AccountPage />, { route: '/account' });
  await userEvent.click(await screen.findByRole('button', { name: 'End all other sessions' }));
  const form = screen.getByRole('form', { name: 'End sessions' });
  expect(form).toHaveTextContent('Enter your password to end 2 other sessions.');
  await userEvent.type(within(form).getByLabelText('Password'), 'my-password');
  await userEvent.click(within(form).getByRole('button', { name: 'End 2 sessions' }));
  expect(await screen.findByText('Ended 2 sessions.')).toBeInTheDocument();
  expect(calls.find((c) => c.url.endsWith('/end'))?.body).toEqual({ sessionIds: [phone.id, unknown.id], password: 'my-password' });
  // Only this one left: nothing else to end.
  await screen.findByText('This session');
  expect(screen.queryByRole('button', { name: 'End all other sessions' })).not.toBeInTheDocument();
  expect(screen.queryByRole('button', { name: /^End session/ })).not.toBeInTheDocument();
});

// Account, the profile (spec 2.11): a refused save marks the field it is about, described by its own
// error (the page's notice says it too, for 3 s), and puts the focus there to be typed in again.
import { FORM_MESSAGES } from '@bookshop/rules';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it, vi } from 'vitest';
import { CLIENT_ACCOUNT_READS, THIS_SESSION_ONLY } from '../../../test/people';
import { renderWithProviders, SIGNED_IN_CLIENT, stubApi } from '../../../test/render';
import { NOTICE_MS } from '../../lib/constants';
import AccountPage from './account-page';

it('a phone number that is not Algerian is refused with its field marked and focused, and nothing sent', async () => {
  const calls = stubApi({ 'GET /api/client/manage/sessions/': THIS_SESSION_ONLY, ...SIGNED_IN_CLIENT, ...CLIENT_ACCOUNT_READS });
  renderWithProviders(<AccountPage />, { route: '/account' });
  const phone = await screen.findByLabelText('Phone number');
  await userEvent.clear(phone);
  await userEvent.type(phone, '12345');
  await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
  expect(await screen.findByRole('alert')).toHaveTextContent(FORM_MESSAGES.profilePhone);
  expect(phone).toBeInvalid();
  expect(phone).toHaveAccessibleDescription(FORM_MESSAGES.profilePhone);
  expect(phone).toHaveFocus();
  expect(screen.getByLabelText('First name')).toBeValid();
  expect(calls.filter((c) => c.method === 'PUT')).toEqual([]);
});

afterEach(() => vi.useRealTimers());

it("a marked field keeps its own reason: when the page's notice says another form's, and after the notice has gone", async () => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
  stubApi({ 'GET /api/client/manage/sessions/': THIS_SESSION_ONLY, ...SIGNED_IN_CLIENT, ...CLIENT_ACCOUNT_READS });
  renderWithProviders(<AccountPage />, { route: '/account' });
  const phone = await screen.findByLabelText('Phone number');
  await user.clear(phone);
  await user.type(phone, '12345');
  await user.click(screen.getByRole('button', { name: 'Save Changes' }));
  expect(await screen.findByRole('alert')).toHaveTextContent(FORM_MESSAGES.profilePhone);
  // The password form, refused next, says its own reason in the page's one notice.
  await user.click(screen.getByRole('button', { name: 'Change password' }));
  await user.click(screen.getByRole('button', { name: 'Change Password' }));
  expect(await screen.findByRole('alert')).toHaveTextContent(FORM_MESSAGES.passwordsMissing);
  expect(phone).toHaveAccessibleDescription(FORM_MESSAGES.profilePhone);
  expect(screen.getByLabelText('Current password')).toHaveAccessibleDescription(FORM_MESSAGES.passwordsMissing);
  await act(() => vi.advanceTimersByTimeAsync(NOTICE_MS + 100));
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  expect(phone).toBeInvalid();
  expect(phone).toHaveAccessibleDescription(FORM_MESSAGES.profilePhone);
});

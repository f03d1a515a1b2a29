// The employee's own second factor on the Account screen, and the step-up prompt a sensitive action
// turns its 403 into: the QR code and the secret as text, the first code confirming the app, the
// recovery codes shown once; and a delete that asks for the second factor, then runs again.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it, vi } from 'vitest';
import { anEmployee, aSession, THIS_SESSION_ONLY } from '../../../test/people';
import { heldAnswer, refusal, renderWithProviders, SIGNED_IN_ADMIN, stubApi } from '../../../test/render';
import EmployeeAccountPage from './account-page';
import EmployeesPage from './employees-page';
import { SecondFactorSection } from './second-factor-section';

const status = (over: object = {}) => ({
  body: { data: { totp: false, passkeys: [], recoveryCodesLeft: 0, required: false, stepUpUntil: null, ...over } },
});
const CODES = Array.from({ length: 10 }, (_, i) => `abcd-efgh-jkmn-pq${String(i).padStart(2, '2')}`);
/** The Admin signed in (the Employees screen offers nothing on their own row). */
const ADA = anEmployee({ id: 1, firstName: 'Ada', lastName: 'Admin', type: 'Admin' });
const SIGNED_IN_AS_ADA = { 'GET /api/employee/employee/': { body: { data: ADA } } };
const STEP_UP = refusal(403, 'STEP_UP_REQUIRED', 'Confirm it is you: this needs your second factor, used within the last 10 minutes.');

it('sets up an authenticator app with a QR code and the secret in text, confirmed by a first code; the recovery codes show once', async () => {
  const calls = stubApi({
    ...SIGNED_IN_ADMIN,
    'GET /api/employee/second-factor': [status({ required: true }), status({ totp: true, recoveryCodesLeft: 10 })],
    'POST /api/employee/second-factor/totp': {
      body: {
        data: { secret: 'JBSWY3DPEHPK3PXP', otpauthUrl: 'otpauth://totp/Bookshop:admin?secret=JBSWY3DPEHPK3PXP', issuer: 'Bookshop' },
      },
    },
    'POST /api/employee/second-factor/totp/confirm': { body: { data: { recoveryCodes: CODES } } },
  });
  renderWithProviders(<SecondFactorSection />, { route: '/employeeaccount' });
  expect(await screen.findByRole('alert')).toHaveTextContent('Admins must set up a second factor');
  // A first factor asks for the password, sent with the setup's start.
  await userEvent.type(screen.getByLabelText('Your password'), 'Shelves-And-Spines-42');
  await userEvent.click(screen.getByRole('button', { name: 'Set up an authenticator app' }));
  expect(calls.find((c) => c.url.endsWith('/second-factor/totp'))?.body).toEqual({ currentPassword: 'Shelves-And-Spines-42' });
  const qr = await screen.findByRole('img', { name: 'QR code for your authenticator app' });
  expect(qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
  expect(screen.getByText('JBSWY3DPEHPK3PXP')).toBeInTheDocument();

  await userEvent.type(screen.getByLabelText('Code from the app'), '123456');
  await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
  const codes = await screen.findByRole('region', { name: 'Your recovery codes' });
  expect(within(codes).getAllByRole('listitem')).toHaveLength(10);
  expect(calls.find((c) => c.url.endsWith('/totp/confirm'))?.body).toEqual({ code: '123456' });
  await userEvent.click(within(codes).getByRole('button', { name: 'I have saved them' }));
  expect(screen.queryByRole('region', { name: 'Your recovery codes' })).not.toBeInTheDocument();
  expect(await screen.findByText('10 of 10 recovery codes left.')).toBeInTheDocument();
  // With a factor, the step-up guards the next one: no password field.
  expect(screen.queryByLabelText('Your password')).not.toBeInTheDocument();
});

/**
 * The Employees screen whose delete of a Seller the server first answers STEP_UP_REQUIRED: Delete is
 * clicked (and confirmed), and the step-up dialog that opens is returned with the calls. The step-up's
 * answer waits for `checked` when given.
 */
async function deleteAskingForStepUp(checked?: Promise<unknown>) {
  vi.spyOn(window, 'confirm').mockReturnValue(true);
  const calls = stubApi({
    ...SIGNED_IN_ADMIN,
    ...SIGNED_IN_AS_ADA,
    'GET /api/employee/employees/': { body: { data: [anEmployee()] } },
    'GET /api/employee/second-factor': status({ totp: true, recoveryCodesLeft: 10 }),
    'DELETE /api/employee/7': [STEP_UP, { body: { data: true } }],
    'POST /api/employee/second-factor/step-up': { body: { data: { stepUpUntil: new Date().toISOString() } }, after: checked },
  });
  renderWithProviders(<EmployeesPage />, { route: '/employees' });
  await userEvent.click(await screen.findByRole('button', { name: 'Delete' }));
  return { calls, dialog: await screen.findByRole('dialog', { name: "Confirm it's you" }) };
}

it('second factors that cannot be read say so with a Retry, not Loading... for ever, and Retry reads them', async () => {
  stubApi({
    ...SIGNED_IN_ADMIN,
    'GET /api/employee/second-factor': [
      { status: 503, headers: { 'retry-after': '5' }, body: { data: null, error: { code: 'UNAVAILABLE', message: 'The shop is busy.' } } },
      status({ required: true }),
    ],
  });
  renderWithProviders(<SecondFactorSection />, { route: '/employeeaccount' });
  const failure = await screen.findByRole('alert');
  expect(failure).toHaveTextContent('Could not load your second factors.');
  expect(failure).toHaveTextContent('The shop is busy.');
  await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
  expect(await screen.findByText(/Admins must set up a second factor/)).toBeInTheDocument();
});

it("turns a delete's 403 STEP_UP_REQUIRED into a prompt for the second factor, then deletes", async () => {
  const { calls, dialog } = await deleteAskingForStepUp();
  await userEvent.type(within(dialog).getByLabelText('Code from your authenticator app, or a recovery code'), '654321');
  await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
  expect(await screen.findByText('Employee deleted successfully.')).toBeInTheDocument();
  expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(2);
  expect(calls.find((c) => c.url.endsWith('/step-up'))?.body).toEqual({ code: '654321' });
});

it('the step-up asks for the code with the focus in its field, and cannot be closed while the code is checked', async () => {
  const checking = heldAnswer();
  const { calls, dialog } = await deleteAskingForStepUp(checking.held);
  const code = within(dialog).getByLabelText('Code from your authenticator app, or a recovery code');
  expect(code).toHaveFocus();
  await userEvent.type(code, '654321');
  await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
  await vi.waitFor(() => expect(calls.some((c) => c.url.endsWith('/step-up'))).toBe(true));
  expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeDisabled();
  await userEvent.keyboard('{Escape}');
  expect(dialog).toBeInTheDocument();
  checking.release();
  expect(await screen.findByText('Employee deleted successfully.')).toBeInTheDocument();
});

it("sends an Admin's new employee to the API whatever the password (spec 5: no other check in the form), and shows the API's refusal under its own words", async () => {
  const weak = 'Use at least 12 characters, or a passphrase of 4 words.';
  const calls = stubApi({
    ...SIGNED_IN_ADMIN,
    ...SIGNED_IN_AS_ADA,
    'GET /api/employee/employees/': { body: { data: [] } },
    'GET /api/employee/second-factor': status({ totp: true, recoveryCodesLeft: 10 }),
    'POST /api/employee': refusal(400, 'WEAK_PASSWORD', weak),
  });
  renderWithProviders(<EmployeesPage />, { route: '/employees' });
  const form = await screen.findByRole('form', { name: 'New employee' });
  await userEvent.type(within(form).getByLabelText('Email'), 'nadia@bookshop.test');
  await userEvent.type(within(form).getByLabelText('Password'), 'short');
  await userEvent.click(within(form).getByRole('button', { name: 'Add Employee' }));
  expect(await screen.findByText('Failed to add employee.')).toBeInTheDocument();
  expect(screen.getByText(weak)).toBeInTheDocument();
  expect(calls.find((c) => c.method === 'POST' && c.url.endsWith('/api/employee'))?.body).toMatchObject({ password: 'short' });
});

it('asks for the second factor before a new password ends the other sessions, then changes it', async () => {
  const calls = stubApi({
    ...SIGNED_IN_ADMIN,
    'GET /api/employee/employee/': { body: { data: anEmployee({ email: 'admin@bookshop.test' }) } },
    'GET /api/employee/sessions/': THIS_SESSION_ONLY,
    'GET /api/employee/second-factor': status({ totp: true, recoveryCodesLeft: 10 }),
    'PUT /api/employee/password/': [STEP_UP, { body: { data: true } }],
    'POST /api/employee/second-factor/step-up': { body: { data: { stepUpUntil: new Date().toISOString() } } },
  });
  renderWithProviders(<EmployeeAccountPage />, { route: '/account' });
  await userEvent.type(await screen.findByLabelText('Current Password'), 'the old passphrase');
  await userEvent.type(screen.getByLabelText(/^New Password/), 'Margins-And-Footnotes-77');
  await userEvent.click(screen.getByRole('button', { name: 'Reset Password' }));
  const dialog = await screen.findByRole('dialog', { name: "Confirm it's you" });
  await userEvent.type(within(dialog).getByLabelText('Code from your authenticator app, or a recovery code'), '654321');
  await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
  expect(await screen.findByText('Password reset successfully.')).toBeInTheDocument();
  expect(calls.filter((c) => c.method === 'PUT' && c.url === '/api/employee/password/')).toHaveLength(2);
});

it('asks for the second factor before ending another back-office session, then ends it; a new password reads the list again', async () => {
  const phone = aSession({ id: '0b0c5e3a-7c1d-4c7e-9a53-2f1d6a0e0002', device: 'Safari on iOS', current: false });
  const calls = stubApi({
    ...SIGNED_IN_ADMIN,
    'GET /api/employee/employee/': { body: { data: anEmployee({ email: 'admin@bookshop.test' }) } },
    'GET /api/employee/sessions/': [{ body: { data: [aSession(), phone] } }, THIS_SESSION_ONLY],
    'GET /api/employee/second-factor': status({ totp: true, recoveryCodesLeft: 10 }),
    'POST /api/employee/sessions/end': [STEP_UP, { body: { data: { ended: 1 } } }],
    'POST /api/employee/second-factor/step-up': { body: { data: { stepUpUntil: new Date().toISOString() } } },
  });
  renderWithProviders(<EmployeeAccountPage />, { route: '/account' });
  await userEvent.click(await screen.findByRole('button', { name: /^End session: Safari on iOS/ }));
  await userEvent.type(within(screen.getByRole('form', { name: 'End sessions' })).getByLabelText('Password'), 'the passphrase');
  await userEvent.click(screen.getByRole('button', { name: 'End 1 session' }));
  const dialog = await screen.findByRole('dialog', { name: "Confirm it's you" });
  await userEvent.type(within(dialog).getByLabelText('Code from your authenticator app, or a recovery code'), '654321');
  await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
  expect(await screen.findByText('Ended 1 session.')).toBeInTheDocument();
  expect(calls.filter((c) => c.url === '/api/employee/sessions/end').map((c) => c.body)).toEqual([
    { sessionIds: [phone.id], password: 'the passphrase' },
    { sessionIds: [phone.id], password: 'the passphrase' },
  ]);
  await waitFor(() => expect(screen.queryByText('Safari on iOS')).not.toBeInTheDocument());
});

it('reads the sessions list again after a new password, which ended the others', async () => {
  const phone = aSession({ id: '0b0c5e3a-7c1d-4c7e-9a53-2f1d6a0e0002', device: 'Safari on iOS', current: false });
  stubApi({
    ...SIGNED_IN_ADMIN,
    'GET /api/employee/employee/': { body: { data: anEmployee({ email: 'admin@bookshop.test' }) } },
    'GET /api/employee/sessions/': [{ body: { data: [aSession(), phone] } }, THIS_SESSION_ONLY],
    'GET /api/employee/second-factor': status(),
    'PUT /api/employee/password/': { body: { data: true } },
  });
  renderWithProviders(<EmployeeAccountPage />, { route: '/account' });
  expect(await screen.findByText('Safari on iOS')).toBeInTheDocument();
  await userEvent.type(screen.getByLabelText('Current Password'), 'the old passphrase');
  await userEvent.type(screen.getByLabelText(/^New Password/), 'Margins-And-Footnotes-77');
  await userEvent.click(screen.getByRole('button', { name: 'Reset Password' }));
  expect(await screen.findByText('Password reset successfully.')).toBeInTheDocument();
  await waitFor(() => expect(screen.queryByText('Safari on iOS')).not.toBeInTheDocument());
});

it('removes a passkey only once asked, and once however often Remove is clicked; new recovery codes are asked for first too', async () => {
  const asked = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValue(true);
  const removing = heldAnswer();
  const passkey = { id: 3, name: 'Work laptop', createdAt: '2026-11-01T10:00:00Z', lastUsedAt: null };
  const calls = stubApi({
    ...SIGNED_IN_ADMIN,
    'GET /api/employee/second-factor': status({ passkeys: [passkey], recoveryCodesLeft: 10 }),
    'DELETE /api/employee/second-factor/passkeys/3': { body: { data: true }, after: removing.held },
    'POST /api/employee/second-factor/recovery-codes': { body: { data: { recoveryCodes: CODES } } },
  });
  renderWithProviders(<SecondFactorSection />, { route: '/employeeaccount' });
  const remove = await screen.findByRole('button', { name: 'Remove passkey Work laptop' });
  // Declined: nothing is sent.
  await userEvent.click(remove);
  expect(asked).toHaveBeenCalledTimes(1);
  expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);
  await userEvent.dblClick(remove);
  expect(remove).toHaveAttribute('aria-disabled', 'true');
  removing.release();
  expect(await screen.findByText('Passkey removed.')).toBeInTheDocument();
  expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);

  asked.mockReturnValueOnce(false);
  await userEvent.click(screen.getByRole('button', { name: 'New recovery codes' }));
  expect(calls.filter((c) => c.url.endsWith('/recovery-codes'))).toHaveLength(0);
});

it("offers nothing on the Admin's own row, asks before making anyone an Admin, and sends a row's action once at a time", async () => {
  const asked = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValue(true);
  const changing = heldAnswer();
  const seller = anEmployee();
  const calls = stubApi({
    ...SIGNED_IN_ADMIN,
    ...SIGNED_IN_AS_ADA,
    'GET /api/employee/employees/': { body: { data: [ADA, seller] } },
    'GET /api/employee/second-factor': status({ totp: true, recoveryCodesLeft: 10 }),
    'PUT /api/employee/7/role': { body: { data: true }, after: changing.held },
  });
  renderWithProviders(<EmployeesPage />, { route: '/employees' });
  const own = (await screen.findByRole('cell', { name: 'You' })).closest('tr')!;
  expect(within(own).queryAllByRole('button')).toEqual([]);
  const makeAdmin = screen.getByRole('button', { name: 'Make Admin' });
  expect(makeAdmin).toHaveAccessibleDescription('Sami Seller');
  // Declined: nothing is sent.
  await userEvent.click(makeAdmin);
  expect(asked).toHaveBeenCalledWith('Make Sami Seller an Admin? Admins manage the employees, the clients and the catalog.');
  expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);
  await userEvent.dblClick(makeAdmin);
  expect(screen.getByRole('button', { name: 'Delete' })).toHaveAttribute('aria-disabled', 'true');
  changing.release();
  expect(await screen.findByText('Role changed to Admin.')).toBeInTheDocument();
  expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1);
  // It says the role the row showed.
  expect(calls.find((c) => c.method === 'PUT')?.search).toBe('?from=Seller');
});

it('a role another Admin changed meanwhile is refused with why, and the list is read again', async () => {
  vi.spyOn(window, 'confirm').mockReturnValue(true);
  const seller = anEmployee();
  const nowAdmin = { ...seller, type: 'Admin' };
  stubApi({
    ...SIGNED_IN_ADMIN,
    ...SIGNED_IN_AS_ADA,
    'GET /api/employee/employees/': [{ body: { data: [ADA, seller] } }, { body: { data: [ADA, nowAdmin] } }],
    'GET /api/employee/second-factor': status({ totp: true, recoveryCodesLeft: 10 }),
    'PUT /api/employee/7/role': refusal(
      409,
      'ROLE_CHANGED',
      "This employee's role changed to Admin meanwhile: look at it again before changing it.",
      { current: nowAdmin },
    ),
  });
  renderWithProviders(<EmployeesPage />, { route: '/employees' });
  await userEvent.click(await screen.findByRole('button', { name: 'Make Admin' }));
  expect(await screen.findByText('Failed to change the role.')).toBeInTheDocument();
  expect(screen.getByText("This employee's role changed to Admin meanwhile: look at it again before changing it.")).toBeInTheDocument();
  // Read again, the row shows what it is now, and offers the change from there.
  expect(await screen.findByRole('button', { name: 'Make Seller' })).toBeInTheDocument();
});

// An employee's own information: the form starts from what is saved, so Save Changes waits for a
// change, Reset brings the saved values back, and a save makes them the new starting point.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it, vi } from 'vitest';
import { anEmployee, THIS_SESSION_ONLY } from '../../../test/people';
import { refusal, renderWithProviders, SIGNED_OUT, stubApi } from '../../../test/render';
import EmployeeAccountPage from './account-page';
import type { EmployeeInfo } from './api/update-me';

const saved = anEmployee({
  id: 2,
  version: 4,
  firstName: 'Samir',
  birthDate: '1990-04-12',
  email: 'seller@bookshop.test',
  phoneNumber: '0661000000',
  address: '3 Rue Didouche Mourad, Algiers',
});

it('Save Changes is enabled only by a change, Reset restores the saved values, and a save sends every field', async () => {
  const calls = stubApi({
    'GET /api/employee/sessions/': THIS_SESSION_ONLY,
    ...SIGNED_OUT,
    // Read again after the save: the information as stored, at its new version.
    'GET /api/employee/employee/': [
      { body: { data: saved } },
      { body: { data: { ...saved, address: '9 Rue Larbi Ben M’hidi, Oran', version: 5 } } },
    ],
    'GET /api/employee/second-factor': {
      body: { data: { totp: false, passkeys: [], recoveryCodesLeft: 0, required: false, stepUpUntil: null } },
    },
    'PUT /api/employee': { body: { data: { ...saved, address: '9 Rue Larbi Ben M’hidi, Oran', version: 5 } } },
  });
  renderWithProviders(<EmployeeAccountPage />, { route: '/account' });
  const address = await screen.findByLabelText('address');
  const save = screen.getByRole('button', { name: 'Save Changes' });
  expect(address).toHaveValue(saved.address);
  expect(save).toBeDisabled();

  // Emptied, a field keeps Save Changes off and says why.
  await userEvent.clear(address);
  expect(save).toBeDisabled();
  expect(save).toHaveAccessibleDescription('All fields are required.');
  // The emptied field is marked, with the same reason; the others are not.
  expect(address).toBeInvalid();
  expect(address).toHaveAccessibleDescription('All fields are required.');
  expect(screen.getByLabelText('firstName')).toBeValid();
  await userEvent.type(address, '9 Rue Larbi Ben M’hidi, Oran');
  expect(save).toBeEnabled();
  expect(address).toBeValid();
  expect(screen.queryByText('All fields are required.')).not.toBeInTheDocument();
  await userEvent.click(screen.getByRole('button', { name: 'Reset' }));
  expect(address).toHaveValue(saved.address);
  expect(save).toBeDisabled();

  await userEvent.clear(address);
  await userEvent.type(address, '9 Rue Larbi Ben M’hidi, Oran');
  await userEvent.click(save);
  expect(await screen.findByText('Information updated successfully.')).toBeInTheDocument();
  expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
    firstName: 'Samir',
    lastName: 'Seller',
    email: 'seller@bookshop.test',
    phoneNumber: '0661000000',
    address: '9 Rue Larbi Ben M’hidi, Oran',
    birthDate: '1990-04-12',
    gender: 'Male',
  });
  // The version the form read goes with it.
  expect(calls.find((c) => c.method === 'PUT')?.ifMatch).toBe('"4"');
  expect(save).toBeDisabled();
  // The next save goes with the version the first one stored (the form, read again, says so still).
  const phone = await screen.findByLabelText('phoneNumber');
  await userEvent.clear(phone);
  await userEvent.type(phone, '0661000001');
  await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
  await vi.waitFor(() => expect(calls.filter((c) => c.method === 'PUT').map((c) => c.ifMatch)).toEqual(['"4"', '"5"']));
  expect(screen.getByText('Information updated successfully.')).toBeInTheDocument();
});

it('a save over information changed in another tab since is refused, says why, and shows what is saved now', async () => {
  const elsewhere = { ...saved, phoneNumber: '0770000000', version: 5 };
  const reason =
    'Your information was changed elsewhere since you opened it (another tab, say). The form now shows what is saved, with your changes on top: check them and save again.';
  const calls = stubApi({
    'GET /api/employee/sessions/': THIS_SESSION_ONLY,
    ...SIGNED_OUT,
    'GET /api/employee/employee/': [{ body: { data: saved } }, { body: { data: elsewhere } }],
    'GET /api/employee/second-factor': {
      body: { data: { totp: false, passkeys: [], recoveryCodesLeft: 0, required: false, stepUpUntil: null } },
    },
    'PUT /api/employee': [
      refusal(412, 'STALE_VERSION', reason, { current: elsewhere }),
      { body: { data: { ...elsewhere, address: '9 Rue Larbi Ben M’hidi, Oran', version: 6 } } },
    ],
  });
  renderWithProviders(<EmployeeAccountPage />, { route: '/account' });
  const address = await screen.findByLabelText('address');
  await userEvent.clear(address);
  await userEvent.type(address, '9 Rue Larbi Ben M’hidi, Oran');
  await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));

  const alert = await screen.findByRole('alert');
  expect(alert).toHaveTextContent('Failed to update information.');
  expect(alert).toHaveTextContent(reason);
  // The phone number as saved elsewhere, the address as typed here: Save again keeps both, with the version now.
  expect(await screen.findByDisplayValue('0770000000')).toBeInTheDocument();
  expect(screen.getByLabelText('address')).toHaveValue('9 Rue Larbi Ben M’hidi, Oran');
  await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
  expect(await screen.findByText('Information updated successfully.')).toBeInTheDocument();
  expect(calls.filter((c) => c.method === 'PUT').map((c) => [c.ifMatch, (c.body as EmployeeInfo).phoneNumber])).toEqual([
    ['"4"', '0661000000'],
    ['"5"', '0770000000'],
  ]);
});

it('a new e-mail, the name the employee signs in with, asks for the second factor first, then saves', async () => {
  const stepUp = refusal(403, 'STEP_UP_REQUIRED', 'Confirm it is you: this needs your second factor, used within the last 10 minutes.');
  const calls = stubApi({
    'GET /api/employee/sessions/': THIS_SESSION_ONLY,
    ...SIGNED_OUT,
    'GET /api/employee/employee/': { body: { data: saved } },
    'GET /api/employee/second-factor': {
      body: { data: { totp: true, passkeys: [], recoveryCodesLeft: 10, required: false, stepUpUntil: null } },
    },
    'PUT /api/employee': [stepUp, { body: { data: { ...saved, email: 'samir@bookshop.test' } } }],
    'POST /api/employee/second-factor/step-up': { body: { data: { stepUpUntil: new Date().toISOString() } } },
  });
  renderWithProviders(<EmployeeAccountPage />, { route: '/account' });
  const email = await screen.findByLabelText('email');
  await userEvent.clear(email);
  await userEvent.type(email, 'samir@bookshop.test');
  await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
  const dialog = await screen.findByRole('dialog', { name: "Confirm it's you" });
  await userEvent.type(within(dialog).getByLabelText('Code from your authenticator app, or a recovery code'), '654321');
  await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
  expect(await screen.findByText('Information updated successfully.')).toBeInTheDocument();
  expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(2);
  expect(email).toHaveValue('samir@bookshop.test');
});

it('a new e-mail from an employee without a second factor asks for the current password beside it, and sends it', async () => {
  const wrong = refusal(400, 'WRONG_PASSWORD', 'The current password is incorrect.');
  const calls = stubApi({
    'GET /api/employee/sessions/': THIS_SESSION_ONLY,
    ...SIGNED_OUT,
    'GET /api/employee/employee/': { body: { data: saved } },
    'GET /api/employee/second-factor': {
      body: { data: { totp: false, passkeys: [], recoveryCodesLeft: 0, required: false, stepUpUntil: null } },
    },
    'PUT /api/employee': [wrong, { body: { data: { ...saved, email: 'samir@bookshop.test' } } }],
  });
  renderWithProviders(<EmployeeAccountPage />, { route: '/account' });
  const address = await screen.findByLabelText('address');
  const save = screen.getByRole('button', { name: 'Save Changes' });
  // Another change asks for nothing more.
  await userEvent.type(address, ' bis');
  expect(screen.queryByLabelText('Password, to confirm the new e-mail')).not.toBeInTheDocument();
  expect(save).toBeEnabled();

  const email = screen.getByLabelText('email');
  await userEvent.clear(email);
  await userEvent.type(email, 'samir@bookshop.test');
  const password = screen.getByLabelText('Password, to confirm the new e-mail');
  expect(save).toBeDisabled();
  expect(save).toHaveAccessibleDescription('Enter your current password to change your e-mail.');
  await userEvent.type(password, 'not-mine');
  await userEvent.click(save);
  expect(await screen.findByText('Failed to update information.')).toBeInTheDocument();
  expect(screen.getByText('The current password is incorrect.')).toBeInTheDocument();

  await userEvent.clear(password);
  await userEvent.type(password, 'Seller#2024');
  await userEvent.click(save);
  expect(await screen.findByText('Information updated successfully.')).toBeInTheDocument();
  expect(calls.filter((c) => c.method === 'PUT').map((c) => (c.body as { currentPassword?: string }).currentPassword)).toEqual([
    'not-mine',
    'Seller#2024',
  ]);
  // Saved, the e-mail is the new starting point: the password is asked for no more, and forgotten.
  expect(screen.queryByLabelText('Password, to confirm the new e-mail')).not.toBeInTheDocument();
});

it("information that cannot be read says 'No employee data available.', why, and offers Retry, which shows it once it can be", async () => {
  stubApi({
    'GET /api/employee/sessions/': THIS_SESSION_ONLY,
    ...SIGNED_OUT,
    'GET /api/employee/employee/': [
      refusal(503, 'DATABASE_UNAVAILABLE', 'The shop is briefly unavailable. Please try again in a moment.'),
      { body: { data: saved } },
    ],
    'GET /api/employee/second-factor': {
      body: { data: { totp: false, passkeys: [], recoveryCodesLeft: 0, required: true, stepUpUntil: null } },
    },
  });
  renderWithProviders(<EmployeeAccountPage />, { route: '/account' });
  expect(await screen.findByText('No employee data available.')).toBeInTheDocument();
  const alert = screen.getByRole('alert');
  expect(alert).toHaveTextContent('The shop is briefly unavailable.');
  await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
  expect(await screen.findByLabelText('address')).toHaveValue(saved.address);
});

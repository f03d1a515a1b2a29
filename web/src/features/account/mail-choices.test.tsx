// The account page's e-mail choices: two boxes read from the shop, each saved as it is ticked.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it } from 'vitest';
import { CLIENT_ACCOUNT_READS, THIS_SESSION_ONLY } from '../../../test/people';
import { renderWithProviders, SIGNED_IN_CLIENT, stubApi } from '../../../test/render';
import AccountPage from './account-page';

it('shows both choices and the note that confirmations always go; unticking one saves it', async () => {
  const calls = stubApi({
    'GET /api/client/manage/sessions/': THIS_SESSION_ONLY,
    ...SIGNED_IN_CLIENT,
    ...CLIENT_ACCOUNT_READS,
    'PUT /api/client/manage/mail-preferences': { body: { data: { statusEmails: true, backInStockEmails: false } } },
  });
  renderWithProviders(<AccountPage />, { route: '/account' });
  const status = await screen.findByRole('checkbox', { name: 'Order status e-mails' });
  const backInStock = screen.getByRole('checkbox', { name: 'Back-in-stock e-mails' });
  expect(status).toBeChecked();
  expect(backInStock).toBeChecked();
  expect(screen.getByText('Order confirmations always go, whatever you choose here.')).toBeInTheDocument();

  await userEvent.click(backInStock);
  expect(await screen.findByText('E-mail choices saved.')).toBeInTheDocument();
  expect(backInStock).not.toBeChecked();
  expect(status).toBeChecked();
  expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ statusEmails: true, backInStockEmails: false });
});

it('holds both boxes while a change is saved, so a second change never races the first', async () => {
  let answer = (_: unknown) => {};
  const calls = stubApi({
    'GET /api/client/manage/sessions/': THIS_SESSION_ONLY,
    ...SIGNED_IN_CLIENT,
    ...CLIENT_ACCOUNT_READS,
    'PUT /api/client/manage/mail-preferences': {
      body: { data: { statusEmails: false, backInStockEmails: true } },
      after: new Promise((done) => (answer = done)),
    },
  });
  renderWithProviders(<AccountPage />, { route: '/account' });
  const status = await screen.findByRole('checkbox', { name: 'Order status e-mails' });
  const backInStock = screen.getByRole('checkbox', { name: 'Back-in-stock e-mails' });
  await userEvent.click(status);
  expect(status).not.toBeChecked();
  // Held, but not disabled: the focus stays on the box just ticked.
  expect(status).toHaveFocus();
  expect(status).toHaveAttribute('aria-disabled', 'true');
  expect(backInStock).toHaveAttribute('aria-disabled', 'true');
  await userEvent.click(backInStock);
  expect(backInStock).toBeChecked();
  answer(null);
  expect(await screen.findByText('E-mail choices saved.')).toBeInTheDocument();
  expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1);
  expect(backInStock).toHaveAttribute('aria-disabled', 'false');
  expect(backInStock).toBeChecked();
});

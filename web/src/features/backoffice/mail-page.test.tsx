// The E-mail screen: the dead letters with the mail server's last answer, each sent again on the Admin's word.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it } from 'vitest';
import { renderWithProviders, SIGNED_IN_ADMIN, stubApi } from '../../../test/render';
import MailPage from './mail-page';

const letter = {
  id: 41,
  kind: 'order_placed',
  clientId: 3,
  employeeId: null,
  orderId: 1200,
  createdAt: '2026-11-25T09:00:00.000Z',
  attempts: 8,
  deadAt: '2026-11-25T15:00:00.000Z',
  lastError: '451 Try again later',
};

it('lists an undelivered e-mail and queues it again; with none left it says every e-mail was delivered', async () => {
  const calls = stubApi({
    ...SIGNED_IN_ADMIN,
    'GET /api/employee/mail/dead-letters': [
      { body: { data: { letters: [letter], totalPages: 1 } } },
      { body: { data: { letters: [], totalPages: 0 } } },
    ],
    'POST /api/employee/mail/dead-letters/41/retry': { body: { data: true } },
  });
  renderWithProviders(<MailPage />, { route: '/mail' });
  expect(await screen.findByRole('cell', { name: 'Order confirmation' })).toBeInTheDocument();
  expect(screen.getByRole('cell', { name: 'Order #1200' })).toBeInTheDocument();
  expect(screen.getByRole('cell', { name: '451 Try again later' })).toBeInTheDocument();
  await userEvent.click(screen.getByRole('button', { name: 'Send e-mail 41 again' }));
  expect(await screen.findByText('The e-mail is queued to be sent again.')).toBeInTheDocument();
  expect(await screen.findByText('Every e-mail was delivered.')).toBeInTheDocument();
  expect(calls.filter((c) => c.method === 'POST' && c.url === '/api/employee/mail/dead-letters/41/retry')).toHaveLength(1);
});

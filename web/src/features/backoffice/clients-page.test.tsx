// All Clients' messages: a message's Delete is sent once, however often it is clicked meanwhile.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it } from 'vitest';
import { heldAnswer, renderWithProviders, SIGNED_IN_ADMIN, stubApi } from '../../../test/render';
import ClientsPage from './clients-page';

const message = { id: 4, userName: 'Ann', account: 'ann@example.com', message: 'Hello', createdAt: '2026-11-30T08:00:00Z' };
/** An Admin's session, and no client to list: the tests are about the messages under the list. */
const noClients = {
  ...SIGNED_IN_ADMIN,
  'GET /api/employee/statistics/clients/': { body: { data: { clients: [], totalPages: 1 } } },
};

it("deletes a message once on a double click, and says it was deleted (not the second click's failure)", async () => {
  const deleting = heldAnswer();
  const calls = stubApi({
    ...noClients,
    'GET /api/employee/contact': { body: { data: { messages: [message], totalPages: 1 } } },
    'DELETE /api/employee/contact/4': { body: { data: true }, after: deleting.held },
  });
  renderWithProviders(<ClientsPage />, { route: '/clients' });
  const remove = await screen.findByRole('button', { name: 'Delete' });
  expect(remove).toHaveAccessibleDescription('Message 4 from Ann');
  await userEvent.dblClick(remove);
  expect(remove).toHaveAttribute('aria-disabled', 'true');
  deleting.release();
  expect(await screen.findByText('Message deleted successfully.')).toBeInTheDocument();
  expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
});

it("keeps a deleted message's Delete busy until the list without it is back: a click meanwhile sends nothing", async () => {
  const relisting = heldAnswer();
  const calls = stubApi({
    ...noClients,
    'GET /api/employee/contact': [
      { body: { data: { messages: [message], totalPages: 1 } } },
      // The list read again after the delete, slow to come back.
      { body: { data: { messages: [], totalPages: 1 } }, after: relisting.held },
    ],
    'DELETE /api/employee/contact/4': { body: { data: true } },
  });
  renderWithProviders(<ClientsPage />, { route: '/clients' });
  const remove = await screen.findByRole('button', { name: 'Delete' });
  await userEvent.click(remove);
  await waitFor(() => expect(calls.filter((c) => c.url === '/api/employee/contact')).toHaveLength(2));
  // The delete is done, the list not yet back: the row still shows, and its Delete is still busy.
  expect(remove).toHaveAttribute('aria-disabled', 'true');
  await userEvent.click(remove);
  relisting.release();
  expect(await screen.findByText('Message deleted successfully.')).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
});

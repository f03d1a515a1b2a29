// The audit log: filters go to the server, Older and Newer page by id, a change reads field by field;
// the filters and the pages gone back through are kept in the address.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it, vi } from 'vitest';
import { anEmployee } from '../../../test/people';
import { Address, renderWithProviders, SIGNED_IN_ADMIN, stubApi } from '../../../test/render';
import AuditLogPage from './audit-log-page';

const entry = (id: number, details: object | null = null, type = 'backoffice_write') => ({
  id,
  at: '2026-11-23T10:00:00.000Z',
  type,
  actor: 'employee:1',
  actorName: 'Amina Admin',
  address: '203.0.113.5',
  entity: type === 'backoffice_write' ? 'BookCopy' : null,
  entityId: type === 'backoffice_write' ? '42' : null,
  details,
});
const employees = {
  body: { data: [anEmployee({ id: 1, firstName: 'Amina', lastName: 'Admin', type: 'Admin' })] },
};

it('shows who changed which fields from what to what, filters by entity and person, and pages back and forth', async () => {
  const calls = stubApi({
    ...SIGNED_IN_ADMIN,
    'GET /api/employee/employees/': employees,
    'GET /api/employee/audit-log': [
      {
        body: {
          data: {
            entries: [
              entry(9, {
                operation: 'update',
                changed: ['price', 'quantity'],
                before: { price: 5, quantity: 4 },
                after: { price: 7.5, quantity: 6 },
              }),
            ],
            nextBefore: 9,
          },
        },
      },
      { body: { data: { entries: [entry(3, { account: 'x' }, 'login_failed')], nextBefore: null } } },
      { body: { data: { entries: [], nextBefore: null } } },
    ],
  });
  renderWithProviders(<AuditLogPage />, { route: '/auditlog' });
  const row = (await screen.findByRole('cell', { name: /price: 5 → 7.5/ })).closest('tr')!;
  expect(within(row).getByText('quantity: 4 → 6')).toBeInTheDocument();
  expect(within(row).getByRole('cell', { name: 'Amina Admin' })).toBeInTheDocument();
  expect(within(row).getByRole('cell', { name: 'Book copies 42' })).toBeInTheDocument();

  await userEvent.click(screen.getByRole('button', { name: 'Older' }));
  expect(await screen.findByRole('cell', { name: 'Failed sign-in' })).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Older' })).toHaveAttribute('aria-disabled', 'true');
  expect(calls.filter((c) => c.url === '/api/employee/audit-log').at(-1)?.search).toBe('?before=9&pageSize=25');

  await userEvent.selectOptions(screen.getByLabelText('Entity'), 'Book copies');
  await userEvent.selectOptions(await screen.findByLabelText('Person'), 'Amina Admin (Admin)');
  await userEvent.type(screen.getByLabelText('From'), '2026-11-01');
  await userEvent.click(screen.getByRole('button', { name: 'Filter' }));
  expect(await screen.findByText('No entries match.')).toBeInTheDocument();
  expect(calls.filter((c) => c.url === '/api/employee/audit-log').at(-1)?.search).toBe(
    '?entity=BookCopy&actor=employee%3A1&from=2026-11-01&pageSize=25',
  );
  expect(screen.getByRole('button', { name: 'Newer' })).toHaveAttribute('aria-disabled', 'true');
});

it('keeps its filters and the pages gone back through in the address: opened there, Filter, and Back show the same entries', async () => {
  const page = (id: number, nextBefore: number | null) => ({ body: { data: { entries: [entry(id)], nextBefore } } });
  const calls = stubApi({
    ...SIGNED_IN_ADMIN,
    'GET /api/employee/employees/': employees,
    'GET /api/employee/audit-log': [page(8, 8), page(5, null), page(8, 8)],
  });
  const logCalls = () => calls.filter((c) => c.url === '/api/employee/audit-log').map((c) => c.search);
  // A link another Admin shared: Book copies by Amina, one page back; what no choice of the screen could say is left out.
  renderWithProviders(
    <>
      <AuditLogPage />
      <Address withSearch withBack />
    </>,
    { route: '/auditlog?entity=BookCopy&actor=employee:1&type=no_such_event&from=2026-02-31&older=9,99999999999999999999' },
  );
  expect(await screen.findByRole('cell', { name: 'Book copies 42' })).toBeInTheDocument();
  expect(logCalls()).toEqual(['?entity=BookCopy&actor=employee%3A1&before=9&pageSize=25']);
  expect(screen.getByLabelText('Entity')).toHaveValue('BookCopy');
  expect(screen.getByLabelText('Event')).toHaveValue('');
  expect(screen.getByLabelText('From')).toHaveValue('');
  expect(await screen.findByRole('option', { name: 'Amina Admin (Admin)' })).toBeInTheDocument();
  expect(screen.getByLabelText('Person')).toHaveValue('employee:1');
  expect(screen.getByRole('button', { name: 'Newer' })).not.toHaveAttribute('aria-disabled');

  await userEvent.selectOptions(screen.getByLabelText('Entity'), 'Books');
  await userEvent.click(screen.getByRole('button', { name: 'Filter' }));
  expect(await screen.findByRole('status', { name: 'address' })).toHaveTextContent('/auditlog?entity=Book&actor=employee%3A1');
  expect(screen.getByRole('button', { name: 'Newer' })).toHaveAttribute('aria-disabled', 'true');
  await screen.findByRole('cell', { name: /Book copies/ });
  expect(logCalls().at(-1)).toBe('?entity=Book&actor=employee%3A1&pageSize=25');

  // Back: the shared link's filters again, in the form too, and the page it had gone back to (from the cache).
  await userEvent.click(screen.getByRole('button', { name: 'Back' }));
  expect(screen.getByRole('status', { name: 'address' })).toHaveTextContent('older=9');
  expect(screen.getByLabelText('Entity')).toHaveValue('BookCopy');
  expect(screen.getByRole('button', { name: 'Newer' })).not.toHaveAttribute('aria-disabled');
});

it('a link to a person the list no longer has shows them in Person, where they can be changed; Filter again reads the log anew and adds no step to Back', async () => {
  const calls = stubApi({
    ...SIGNED_IN_ADMIN,
    'GET /api/employee/employees/': employees,
    'GET /api/employee/audit-log': { body: { data: { entries: [], nextBefore: null } } },
  });
  renderWithProviders(
    <>
      <AuditLogPage />
      <Address withSearch withBack />
    </>,
    { route: '/auditlog?actor=employee:77' },
  );
  expect(await screen.findByRole('option', { name: 'employee:77' })).toBeInTheDocument();
  expect(screen.getByLabelText('Person')).toHaveValue('employee:77');
  await userEvent.selectOptions(screen.getByLabelText('Person'), 'Anyone');
  await userEvent.click(screen.getByRole('button', { name: 'Filter' }));
  expect(await screen.findByRole('status', { name: 'address' })).toHaveTextContent(/^\/auditlog$/);
  expect(calls.filter((c) => c.url === '/api/employee/audit-log').at(-1)?.search).toBe('?pageSize=25');
  // Filter again on the filters shown: the log is read again (what came since), and no new step
  // is added, so one Back returns to the link as opened.
  const reads = calls.filter((c) => c.url === '/api/employee/audit-log').length;
  await userEvent.click(screen.getByRole('button', { name: 'Filter' }));
  await vi.waitFor(() => expect(calls.filter((c) => c.url === '/api/employee/audit-log')).toHaveLength(reads + 1));
  await userEvent.click(screen.getByRole('button', { name: 'Back' }));
  expect(screen.getByRole('status', { name: 'address' })).toHaveTextContent('/auditlog?actor=employee:77');
  expect(screen.getByLabelText('Person')).toHaveValue('employee:77');
});

// The audit log: filters go to the server, Older and Newer page by id, a change reads field by field.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it } from 'vitest';
import { anEmployee } from '../../../test/people';
import { renderWithProviders, SIGNED_IN_ADMIN, stubApi } from '../../../test/render';
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
  expect(screen.getByRole('button', { name: 'Older' })).toBeDisabled();
  expect(calls.filter((c) => c.url === '/api/employee/audit-log').at(-1)?.search).toBe('?before=9&pageSize=25');

  await userEvent.selectOptions(screen.getByLabelText('Entity'), 'Book copies');
  await userEvent.selectOptions(await screen.findByLabelText('Person'), 'Amina Admin (Admin)');
  await userEvent.type(screen.getByLabelText('From'), '2026-11-01');
  await userEvent.click(screen.getByRole('button', { name: 'Filter' }));
  expect(await screen.findByText('No entries match.')).toBeInTheDocument();
  expect(calls.filter((c) => c.url === '/api/employee/audit-log').at(-1)?.search).toBe(
    '?entity=BookCopy&actor=employee%3A1&from=2026-11-01&pageSize=25',
  );
  expect(screen.getByRole('button', { name: 'Newer' })).toBeDisabled();
});

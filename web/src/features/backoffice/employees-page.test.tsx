// The Employees screen lists the first EMPLOYEES_LISTED employees (the spec's list has no pages), and
// says so when the list is full rather than leave the others unseen.
import { EMPLOYEES_LISTED } from '@bookshop/rules';
import { screen } from '@testing-library/react';
import { expect, it } from 'vitest';
import { anEmployee } from '../../../test/people';
import { renderWithProviders, SIGNED_IN_ADMIN, stubApi } from '../../../test/render';
import EmployeesPage from './employees-page';

const FULL_NOTE = `Showing the first ${EMPLOYEES_LISTED.toLocaleString('en-US')} employees by number; the others are not listed here.`;
const answers = (count: number) => ({
  ...SIGNED_IN_ADMIN,
  'GET /api/employee/employee/': { body: { data: anEmployee({ id: 1, type: 'Admin' }) } },
  'GET /api/employee/employees/': {
    body: { data: Array.from({ length: count }, (_, i) => anEmployee({ id: i + 1, email: `e${i + 1}@bookshop.test` })) },
  },
});

it('says the list is cut when it holds as many employees as the shop lists', async () => {
  stubApi(answers(EMPLOYEES_LISTED));
  renderWithProviders(<EmployeesPage />, { route: '/employees' });
  expect(await screen.findByText(FULL_NOTE)).toBeInTheDocument();
});

it('says nothing of the kind for a list below it', async () => {
  stubApi(answers(3));
  renderWithProviders(<EmployeesPage />, { route: '/employees' });
  expect(await screen.findByText('e3@bookshop.test')).toBeInTheDocument();
  expect(screen.queryByText(FULL_NOTE)).not.toBeInTheDocument();
});

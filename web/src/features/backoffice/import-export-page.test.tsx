// The import: checked first, written only on confirmation (skipping invalid rows only if asked),
// then followed by a progress bar until it ends.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it } from 'vitest';
import { findStatusSaying, renderWithProviders, SIGNED_IN_ADMIN, stubApi } from '../../../test/render';
import ImportExportPage from './import-export-page';

const job = (status: string, processed = 0) => ({
  id: 4,
  status,
  rows: 5,
  new: 1,
  changed: 2,
  unchanged: 1,
  invalid: 1,
  invalidRows: [{ line: 4, isbn: '9780000000001', reason: 'This is not a valid ISBN.' }],
  moved: 0,
  movedRows: [],
  stopped: 0,
  stoppedRows: [],
  warnings: [],
  skipInvalid: status !== 'checked',
  total: 3,
  processed,
  error: null,
  createdAt: '2026-11-23T10:00:00.000Z',
  finishedAt: status === 'done' ? '2026-11-23T10:00:05.000Z' : null,
});

it('checks the file, lists the invalid rows, imports only once they are skipped, and shows the progress to the end', async () => {
  const file = 'isbn,price,stock,available\n9780261103344,9.99,3,true\n';
  const calls = stubApi({
    ...SIGNED_IN_ADMIN,
    'POST /api/employee/catalog/import': { body: { data: job('checked') } },
    'GET /api/employee/catalog/import/4': [
      { body: { data: job('checked') } },
      { body: { data: job('running', 1) } },
      { body: { data: job('done', 3) } },
    ],
    'POST /api/employee/catalog/import/4/run': { body: { data: job('running', 0) } },
  });
  renderWithProviders(<ImportExportPage />, { route: '/importexport' });
  await userEvent.upload(screen.getByLabelText('CSV file'), new File([file], 'books.csv', { type: 'text/csv' }));
  await userEvent.click(screen.getByRole('button', { name: 'Check File' }));

  expect(await screen.findByRole('cell', { name: 'This is not a valid ISBN.' })).toBeInTheDocument();
  expect(calls.find((c) => c.url === '/api/employee/catalog/import')?.body).toBe(file);
  const importButton = screen.getByRole('button', { name: 'Import' });
  expect(importButton).toBeDisabled();
  expect(screen.getByText(/A file with invalid rows writes nothing unless you skip them/)).toBeInTheDocument();

  await userEvent.click(screen.getByLabelText('Skip the invalid rows'));
  await userEvent.click(importButton);
  expect(calls.find((c) => c.url === '/api/employee/catalog/import/4/run')?.body).toEqual({ skipInvalid: true });
  expect(await screen.findByText('Written 1 of 3 rows...')).toBeInTheDocument();
  expect(screen.getByRole('progressbar', { name: 'Import progress' })).toHaveAttribute('value', '1');
  // One real poll (a second) away; the bounds leave room for a loaded machine.
  expect(await screen.findByText('Import finished: 3 rows written.', {}, { timeout: 5000 })).toBeInTheDocument();
}, 15_000);

it('a check replaced in another tab is not left on screen as a dry run waiting to be imported', async () => {
  const gone = {
    status: 404,
    body: {
      data: null,
      error: { code: 'NOT_FOUND', message: 'No such import. A newer check replaces one not run: check the file again.' },
    },
  };
  stubApi({
    ...SIGNED_IN_ADMIN,
    'POST /api/employee/catalog/import': { body: { data: { ...job('checked'), invalid: 0, invalidRows: [] } } },
    'GET /api/employee/catalog/import/4': [{ body: { data: { ...job('checked'), invalid: 0, invalidRows: [] } } }, gone],
    'POST /api/employee/catalog/import/4/run': gone,
  });
  renderWithProviders(<ImportExportPage />, { route: '/importexport' });
  await userEvent.upload(screen.getByLabelText('CSV file'), new File(['isbn,price,stock,available\n'], 'books.csv', { type: 'text/csv' }));
  await userEvent.click(screen.getByRole('button', { name: 'Check File' }));
  await userEvent.click(await screen.findByRole('button', { name: 'Import' }));
  expect(await screen.findByText(/The import could not be read\./)).toHaveTextContent('check the file again');
  expect(screen.queryByRole('button', { name: 'Import' })).not.toBeInTheDocument();
});

it('a run that fails for another reason (the shop busy) keeps the dry run on screen to try again', async () => {
  const checked = { ...job('checked'), invalid: 0, invalidRows: [] };
  const calls = stubApi({
    ...SIGNED_IN_ADMIN,
    'POST /api/employee/catalog/import': { body: { data: checked } },
    'GET /api/employee/catalog/import/4': { body: { data: checked } },
    'POST /api/employee/catalog/import/4/run': {
      status: 503,
      body: { data: null, error: { code: 'BUSY', message: 'The shop is busy. Please try again in a moment.' } },
    },
  });
  renderWithProviders(<ImportExportPage />, { route: '/importexport' });
  await userEvent.upload(screen.getByLabelText('CSV file'), new File(['isbn,price,stock,available\n'], 'books.csv', { type: 'text/csv' }));
  await userEvent.click(screen.getByRole('button', { name: 'Check File' }));
  await userEvent.click(await screen.findByRole('button', { name: 'Import' }));
  expect(await screen.findByText(/The import could not start\./)).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Import' })).toBeInTheDocument();
  expect(calls.filter((c) => c.method === 'GET' && c.url === '/api/employee/catalog/import/4')).toHaveLength(1);
});

it('says why a file could not be checked', async () => {
  stubApi({
    ...SIGNED_IN_ADMIN,
    'POST /api/employee/catalog/import': {
      status: 400,
      body: {
        data: null,
        error: { code: 'BAD_REQUEST', message: "The file's first line must name the columns isbn, price, stock, available." },
      },
    },
  });
  renderWithProviders(<ImportExportPage />, { route: '/importexport' });
  await userEvent.upload(screen.getByLabelText('CSV file'), new File(['a,b\n1,2'], 'books.csv', { type: 'text/csv' }));
  await userEvent.click(screen.getByRole('button', { name: 'Check File' }));
  const alert = await screen.findByRole('alert');
  expect(alert).toHaveTextContent('The file could not be checked.');
  expect(alert).toHaveTextContent("The file's first line must name the columns isbn, price, stock, available.");
});

it("says what the run would undo: the check's warnings, and the rows whose stock moved since the export", async () => {
  const warning = "The file has no exported_stock column: each row's stock replaces the copy's, sales since included.";
  const checked = {
    ...job('checked'),
    warnings: [warning],
    moved: 3,
    movedRows: [{ line: 2, isbn: '9780261103344', exportedStock: 5, stockNow: 3, stockAfter: 1 }],
  };
  stubApi({
    ...SIGNED_IN_ADMIN,
    'POST /api/employee/catalog/import': { body: { data: checked } },
    'GET /api/employee/catalog/import/4': { body: { data: checked } },
  });
  renderWithProviders(<ImportExportPage />, { route: '/importexport' });
  await userEvent.upload(screen.getByLabelText('CSV file'), new File(['isbn,price,stock,available\n'], 'books.csv', { type: 'text/csv' }));
  await userEvent.click(screen.getByRole('button', { name: 'Check File' }));

  expect(await screen.findByText(warning)).toBeInTheDocument();
  expect(screen.getByRole('heading', { name: 'Stock moved since the export' })).toBeInTheDocument();
  expect(screen.getByText('The first 1 of 3:')).toBeInTheDocument();
  const row = screen.getByRole('row', { name: /9780261103344/ });
  expect(row).toHaveTextContent('9780261103344531');
});

it('names the rows whose stock stopped at 0 when sales since the check left less than the file took away', async () => {
  const done = {
    ...job('done', 3),
    stopped: 2,
    stoppedRows: [{ line: 3, isbn: '9780261103344', stockBefore: 1, change: -4, stockAfter: 0 }],
  };
  stubApi({
    ...SIGNED_IN_ADMIN,
    'POST /api/employee/catalog/import': { body: { data: job('checked') } },
    'GET /api/employee/catalog/import/4': [{ body: { data: job('checked') } }, { body: { data: done } }],
    'POST /api/employee/catalog/import/4/run': { body: { data: job('running', 0) } },
  });
  renderWithProviders(<ImportExportPage />, { route: '/importexport' });
  await userEvent.upload(screen.getByLabelText('CSV file'), new File(['isbn,price,stock,available\n'], 'books.csv', { type: 'text/csv' }));
  await userEvent.click(screen.getByRole('button', { name: 'Check File' }));
  await userEvent.click(await screen.findByLabelText('Skip the invalid rows'));
  await userEvent.click(screen.getByRole('button', { name: 'Import' }));

  expect(await screen.findByRole('heading', { name: 'Stock stopped at a limit' })).toBeInTheDocument();
  expect(
    screen.getByText(/^2 rows could not change the stock in full: sales or restocks since the check left less stock/),
  ).toBeInTheDocument();
  expect(screen.getByText('The first 1 of 2:')).toBeInTheDocument();
  expect(screen.getByRole('row', { name: /9780261103344/ })).toHaveTextContent('397802611033441-40');
  expect(await findStatusSaying('Import finished: 3 rows written. 2 rows stopped at a limit (listed below).')).toBeInTheDocument();
});

it('a progress read that fails once keeps the import on screen, says so, and goes on when the next one answers', async () => {
  stubApi({
    ...SIGNED_IN_ADMIN,
    'POST /api/employee/catalog/import': { body: { data: job('running', 1) } },
    'GET /api/employee/catalog/import/4': [
      { body: { data: job('running', 1) } },
      { status: 503, headers: { 'retry-after': '1' }, body: { data: null, error: { code: 'UNAVAILABLE', message: 'The shop is busy.' } } },
      { body: { data: job('running', 2) } },
    ],
  });
  renderWithProviders(<ImportExportPage />, { route: '/importexport' });
  await userEvent.upload(screen.getByLabelText('CSV file'), new File(['isbn\n'], 'books.csv', { type: 'text/csv' }));
  await userEvent.click(screen.getByRole('button', { name: 'Check File' }));
  expect(await screen.findByText('Written 1 of 3 rows...')).toBeInTheDocument();
  // The first poll fails: the progress stays, with the reason under a line that says it may be behind.
  expect(await screen.findByText(/progress could not be read just now/, {}, { timeout: 5000 })).toHaveTextContent('The shop is busy.');
  expect(screen.getByText('Written 1 of 3 rows...')).toBeInTheDocument();
  expect(screen.queryByText(/The import could not be read\./)).not.toBeInTheDocument();
  // The next one answers: the progress moves on and the warning goes.
  expect(await screen.findByText('Written 2 of 3 rows...', {}, { timeout: 5000 })).toBeInTheDocument();
  expect(screen.queryByText(/progress could not be read just now/)).not.toBeInTheDocument();
}, 15_000);

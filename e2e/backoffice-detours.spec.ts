// The back-office's paths beyond adding and shipping: inline Edit, Save and Cancel, search by id and
// Reset, delete confirmations answered both ways, message and employee deletes, an employee's own
// account, Mark as Processing, a double click, and a dashboard that cannot load.
import type { Locator, Page } from '@playwright/test';
import { DEMO, expect, logIn, openBackofficeScreen, query, test } from './fixtures.ts';

/** Answers the next confirm() with OK or Cancel, and remembers its question. */
function answerNextConfirm(page: Page, accept: boolean) {
  const asked: string[] = [];
  page.once('dialog', async (dialog) => {
    asked.push(dialog.message());
    await (accept ? dialog.accept() : dialog.dismiss());
  });
  return asked;
}

const rowOf = (page: Page, id: number) => page.getByRole('row', { name: new RegExp(`^${id} `) });
/** Searches a back-office table for an id (its search box is `searchLabel`) and gives that id's row. */
async function searchRow(page: Page, searchLabel: string, id: number) {
  await page.getByLabel(searchLabel, { exact: true }).fill(String(id));
  await page.getByRole('button', { name: 'Search' }).click();
  return rowOf(page, id);
}

/** Edits a table's row inline: Edit, `change` its fields, then Save or Cancel. */
async function editRow(row: Locator, change: (row: Locator) => Promise<void>, finish: 'Save' | 'Cancel') {
  await row.getByRole('button', { name: 'Edit' }).click();
  await change(row);
  await row.getByRole('button', { name: finish }).click();
}

test('an Admin renames an author inline, cancels a second edit, finds it by id, resets the search, and deletes it only when confirming', async ({
  page,
  loggedInAs,
}) => {
  const name = `Detour Author ${Date.now()}`;
  const [author] = await query<{ id: number }>('INSERT INTO authors (full_name) VALUES ($1) RETURNING id', [name]);
  await loggedInAs(DEMO.admin);
  await openBackofficeScreen(page, 'Authors');
  await expect(page.getByRole('heading', { name: 'Authors' })).toBeVisible();
  const search = page.getByLabel('Search by ID or name');

  await search.fill(String(author!.id));
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByRole('row')).toHaveCount(2);
  const row = rowOf(page, author!.id);
  await expect(row).toContainText(name);

  await editRow(row, (r) => r.getByLabel('Full Name').fill(`${name} Renamed`), 'Save');
  await expect(page.getByText('Author updated successfully.')).toBeVisible();
  await expect(row).toContainText(`${name} Renamed`);

  await editRow(row, (r) => r.getByLabel('Full Name').fill('Not This Name'), 'Cancel');
  await expect(row).toContainText(`${name} Renamed`);
  expect(await query('SELECT full_name FROM authors WHERE id = $1', [author!.id])).toEqual([{ full_name: `${name} Renamed` }]);

  await page.getByRole('button', { name: 'Reset' }).click();
  await expect(search).toHaveValue('');
  await expect(page.getByRole('navigation', { name: 'Pages' })).toContainText('Page 1 of');
  await expect(page.getByRole('row')).not.toHaveCount(2);

  await search.fill(`${name} Renamed`);
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByRole('row')).toHaveCount(2);
  const dismissed = answerNextConfirm(page, false);
  await row.getByRole('button', { name: 'Delete' }).click();
  expect(dismissed).toEqual(['Are you sure you want to delete this author?']);
  await expect(row).toBeVisible();
  expect(await query('SELECT 1 FROM authors WHERE id = $1', [author!.id])).toHaveLength(1);

  answerNextConfirm(page, true);
  await row.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Author deleted successfully.')).toBeVisible();
  expect(await query('SELECT 1 FROM authors WHERE id = $1', [author!.id])).toEqual([]);
});

test('an Admin edits a book and a copy inline: Save writes, Cancel leaves them as they were', async ({ page, loggedInAs }) => {
  const [copy] = await query<{ id: number; book_id: number; name: string; pages_number: number | null }>(
    `SELECT c.id, c.book_id, b.name, b.pages_number FROM book_copies c JOIN books b ON b.id = c.book_id
      WHERE c.is_available AND c.quantity > 3 ORDER BY c.id DESC LIMIT 1`,
  );
  await loggedInAs(DEMO.admin);

  await openBackofficeScreen(page, 'Books');
  await expect(page.getByRole('heading', { name: 'Books' })).toBeVisible();
  const book = await searchRow(page, 'Search by ID or name', copy!.book_id);
  await editRow(book, (r) => r.getByLabel('Pages').fill('321'), 'Save');
  await expect(page.getByText('Book updated successfully.')).toBeVisible();
  await editRow(book, (r) => r.getByLabel('Name').fill('A Title Nobody Saved'), 'Cancel');
  await expect(book).toContainText(copy!.name);
  expect(await query('SELECT name, pages_number FROM books WHERE id = $1', [copy!.book_id])).toEqual([
    { name: copy!.name, pages_number: 321 },
  ]);

  await openBackofficeScreen(page, 'Book Copies');
  // The Books screen's 'Search by ID or name' stays until this screen's code has loaded.
  await expect(page.getByRole('heading', { name: 'Book Copies' })).toBeVisible();
  const copyRow = await searchRow(page, 'Search by ID', copy!.id);
  await editRow(copyRow, (r) => r.getByLabel('Price').fill('17.25'), 'Save');
  await expect(page.getByText('Book copy updated successfully.')).toBeVisible();
  await expect(copyRow).toContainText('$17.25');
  await editRow(copyRow, (r) => r.getByLabel('Available').uncheck(), 'Cancel');
  // Out of edit (the row read 'Yes' before the edit too, but not while its checkbox showed).
  await expect(copyRow.getByLabel('Available')).toHaveCount(0);
  await expect(copyRow).toContainText('Yes');
  expect(await query('SELECT price::text, is_available FROM book_copies WHERE id = $1', [copy!.id])).toEqual([
    { price: '17.25', is_available: true },
  ]);
});

test('an Admin who double-clicks Add Book Copy adds one copy', async ({ page, loggedInAs }) => {
  const [book] = await query<{ id: number }>('SELECT id FROM books ORDER BY id DESC LIMIT 1');
  const [before] = await query<{ n: number }>('SELECT count(*)::int AS n FROM book_copies WHERE book_id = $1', [book!.id]);
  await loggedInAs(DEMO.admin);
  await openBackofficeScreen(page, 'Book Copies');
  await page.getByLabel('Book ID').fill(String(book!.id));
  await page.getByLabel('Quantity').fill('2');
  await page.getByLabel('Price').fill('5.50');
  await page.getByRole('button', { name: 'Add Book Copy' }).dblclick();
  await expect(page.getByText('Book copy added successfully.')).toBeVisible();
  const [after] = await query<{ n: number }>('SELECT count(*)::int AS n FROM book_copies WHERE book_id = $1', [book!.id]);
  expect(after!.n).toBe(before!.n + 1);
});

test('a Seller marks an order as Processing', async ({ page, loggedInAs }) => {
  await loggedInAs(DEMO.seller);
  await openBackofficeScreen(page, 'Orders');
  // The newest order whose status can change (a cancelled or failed one keeps its status, its buttons off).
  const changeable = page
    .getByRole('article')
    .filter({ has: page.getByRole('button', { name: 'Mark as Processing', disabled: false }) })
    .first();
  const orderId = Number((await changeable.getAttribute('aria-label'))!.replace(/\D/g, ''));
  const order = page.getByRole('article', { name: `Order ${orderId}`, exact: true });
  await order.getByRole('button', { name: 'Mark as Processing' }).click();
  await expect(order.getByText('Status updated successfully.')).toBeVisible();
  await expect(order.getByText('Processing', { exact: true })).toBeVisible();
  expect(await query('SELECT status FROM orders WHERE id = $1', [orderId])).toEqual([{ status: 'Processing' }]);
});

test("an Admin deletes a client's message", async ({ page, loggedInAs }) => {
  const text = `Detour message ${Date.now()}`;
  const [message] = await query<{ id: number }>(
    "INSERT INTO contact_messages (user_name, account, message) VALUES ('Rim', 'rim@example.com', $1) RETURNING id",
    [text],
  );
  await loggedInAs(DEMO.admin);
  await openBackofficeScreen(page, 'Clients');
  const row = page.getByRole('row').filter({ hasText: text });
  await expect(row).toBeVisible();
  // The spec asks no confirmation for a message.
  await row.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Message deleted successfully.')).toBeVisible();
  await expect(row).toHaveCount(0);
  expect(await query('SELECT 1 FROM contact_messages WHERE id = $1', [message!.id])).toEqual([]);
});

test('an Admin adds a Seller, who updates their information, password and e-mail (confirmed with the password) and signs in with the new ones; the Admin then deletes them', async ({
  page,
  loggedInAs,
}) => {
  const email = `seller.${Date.now()}@bookshop.test`;
  await loggedInAs(DEMO.admin);
  await openBackofficeScreen(page, 'Employees');
  const form = page.getByRole('form', { name: 'New employee' });
  await form.getByLabel('First name').fill('Nadia');
  await form.getByLabel('Last name').fill('Haddad');
  await form.getByLabel('Birth date').fill('1994-05-17');
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Phone').fill('0555987654');
  await form.getByLabel('Address').fill('8 Rue Larbi Ben Mhidi, Algiers');
  await form.getByLabel('Password').fill('Shelves-And-Spines-42');
  await form.getByLabel('Role').selectOption('Seller');
  await form.getByRole('button', { name: 'Add Employee' }).click();
  await expect(page.getByText('Employee added successfully.')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: email })).toContainText('Seller');
  await page.getByRole('button', { name: 'Logout' }).click();

  await logIn(page, { account: email, password: 'Shelves-And-Spines-42' });
  await expect(page).toHaveURL(/\/dashboard$/);
  await openBackofficeScreen(page, 'Account');
  const address = page.getByLabel('address');
  await expect(address).toHaveValue('8 Rue Larbi Ben Mhidi, Algiers');
  await address.fill('10 Boulevard Zighoud Youcef, Constantine');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Information updated successfully.')).toBeVisible();
  await page.getByLabel('Current Password').fill('Shelves-And-Spines-42');
  await page.getByLabel('New Password').fill('Margins-And-Footnotes-77');
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByText('Password reset successfully.')).toBeVisible();
  // A new sign-in e-mail, from a Seller without a second factor, is confirmed with the password.
  const renamed = `nadia.${Date.now()}@bookshop.test`;
  await page.getByLabel('email').fill(renamed);
  await page.getByLabel('Password, to confirm the new e-mail').fill('Margins-And-Footnotes-77');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Information updated successfully.')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('address')).toHaveValue('10 Boulevard Zighoud Youcef, Constantine');
  await expect(page.getByLabel('email')).toHaveValue(renamed);
  await page.getByRole('button', { name: 'Logout' }).click();

  await logIn(page, { account: renamed, password: 'Shelves-And-Spines-42' });
  await expect(page.getByText('Invalid account or password.')).toBeVisible();
  await logIn(page, { account: email, password: 'Margins-And-Footnotes-77' });
  await expect(page.getByText('Invalid account or password.')).toBeVisible();
  await logIn(page, { account: renamed, password: 'Margins-And-Footnotes-77' });
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByRole('button', { name: 'Logout' }).click();

  await loggedInAs(DEMO.admin);
  await openBackofficeScreen(page, 'Employees');
  const row = page.getByRole('row').filter({ hasText: renamed });
  const asked = answerNextConfirm(page, true);
  await row.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Employee deleted successfully.')).toBeVisible();
  await expect(row).toHaveCount(0);
  expect(asked).toEqual(['Are you sure you want to delete this employee?']);
  expect(await query('SELECT 1 FROM employees WHERE email = $1', [renamed])).toEqual([]);
});

test("the dashboard says 'Failed to load data.' when its figures cannot be fetched", async ({ page, loggedInAs }) => {
  await loggedInAs(DEMO.admin);
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await page.route(/\/api\/employee\/statistics/, (route) => route.fulfill({ status: 500, json: { message: 'boom' } }));
  await page.reload();
  await expect(page.getByRole('alert')).toHaveText('Failed to load data.');
});

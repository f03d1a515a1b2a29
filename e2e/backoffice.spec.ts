import { BACKOFFICE_PATHS, DEMO, expect, logIn, openBackofficeScreen, query, screenshotEachScreen, test } from './fixtures.ts';

test.beforeEach(async ({ page }) => {
  page.on('dialog', (dialog) => dialog.accept());
});

test('an Admin adds an author, a book by ISBN and a copy with price and stock; a visitor then finds it in the storefront', async ({
  page,
  loggedInAs,
}) => {
  // A seed book nobody has ordered: the Admin removes it, then adds it back by its ISBN.
  const [book] = await query<{ id: number; isbn13: string; name: string }>(
    `SELECT b.id, b.isbn13, b.name FROM books b WHERE b.isbn13 IS NOT NULL AND length(b.name) BETWEEN 12 AND 40
       AND NOT EXISTS (SELECT 1 FROM order_items oi JOIN book_copies c ON c.id = oi.book_copy_id WHERE c.book_id = b.id)
     ORDER BY b.ratings_count DESC LIMIT 1`,
  );
  await loggedInAs(DEMO.admin);

  await openBackofficeScreen(page, 'Authors');
  const author = `E2E Author ${Date.now()}`;
  await page.getByPlaceholder('Enter new author name').fill(author);
  await page.getByRole('button', { name: 'Add Author' }).click();
  await expect(page.getByText('Author added successfully.')).toBeVisible();
  await page.getByLabel('Search by ID or name').fill(author);
  await page.getByRole('button', { name: 'Search' }).click();
  // The table's body (its second row group, after the headings) holds the one author found.
  const found = page.getByRole('rowgroup').last().getByRole('row');
  await expect(found).toHaveCount(1);
  await expect(found).toContainText(author);

  await openBackofficeScreen(page, 'Books');
  await page.getByLabel('Search by ID or name').fill(String(book!.id));
  await page.getByRole('button', { name: 'Search' }).click();
  // The row of the book searched for, not whatever row the list showed before the search answered.
  await page
    .getByRole('row', { name: new RegExp(`^${book!.id} `) })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(page.getByText('Book deleted successfully.')).toBeVisible();
  await page.getByRole('button', { name: 'Add Book' }).click();
  await expect(page.getByRole('alert')).toHaveText('All fields are required.');
  await page.getByLabel('ISBN').fill(book!.isbn13);
  await page.getByRole('button', { name: 'Add Book' }).click();
  await expect(page.getByText('Book added successfully.')).toBeVisible();
  const [added] = await query<{ id: number }>('SELECT id FROM books WHERE isbn13 = $1', [book!.isbn13]);

  await openBackofficeScreen(page, 'Book Copies');
  await page.getByLabel('Search by ID').fill('abc');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByText('All fields are requered.')).toBeVisible();
  await page.getByLabel('Book ID').fill(String(added!.id));
  await page.getByLabel('Quantity').fill('7');
  await page.getByLabel('Price').fill('12.34');
  await page.getByRole('button', { name: 'Add Book Copy' }).click();
  await expect(page.getByText('Book copy added successfully.')).toBeVisible();

  await page.getByRole('button', { name: 'Logout' }).click();
  await page.getByLabel('Search books').fill(book!.name);
  await page.getByLabel('Search books').press('Enter');
  const result = page.getByRole('main').getByRole('article').filter({ hasText: book!.name }).first();
  await expect(result).toContainText('$12.34');
  await result.getByRole('button', { name: /^Open / }).click();
  await expect(page.getByText('7 available')).toBeVisible();
});

test("a Seller marks a client's order Shipped and the client sees Shipped in My Orders", async ({ page, loggedInAs }) => {
  await loggedInAs(DEMO.seller);
  await expect(page.getByRole('link', { name: 'Authors' })).toHaveCount(0);
  await openBackofficeScreen(page, 'Orders');
  // The newest order whose status can change (a cancelled or failed one keeps its status, its buttons off).
  const firstCard = page
    .getByRole('article', { name: /^Order \d+$/ })
    .filter({ has: page.getByRole('button', { name: 'Mark as Shipped', disabled: false }) })
    .first();
  const orderId = Number((await firstCard.getByRole('heading').textContent())!.replace(/\D/g, ''));
  // Each order card is an article named after its order.
  const card = page.getByRole('article', { name: `Order ${orderId}`, exact: true });
  await card.getByRole('button', { name: 'Mark as Shipped' }).click();
  await expect(card.getByText('Status updated successfully.')).toBeVisible();
  await expect(card.getByText('Shipped', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Logout' }).click();

  const [owner] = await query<{ account: string }>('SELECT c.account FROM orders o JOIN clients c ON c.id = o.client_id WHERE o.id = $1', [
    orderId,
  ]);
  await logIn(page, { account: owner!.account, password: DEMO.client.password });
  await expect(page).not.toHaveURL(/\/login$/);
  await page.goto('/orders');
  const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: String(orderId), exact: true }) });
  await expect(row.getByRole('cell', { name: 'Shipped', exact: true })).toBeVisible();
});

test('screenshots of every back-office screen', async ({ page, loggedInAs }) => {
  await loggedInAs(DEMO.admin);
  await screenshotEachScreen(
    page,
    BACKOFFICE_PATHS,
    (width, screen) => `e2e/screenshots/backoffice-${width}${screen.replace('/', '-')}.png`,
  );
});

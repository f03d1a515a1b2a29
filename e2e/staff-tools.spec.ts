// Beyond the spec, for staff: the dashboard's charts, Low Stock with its restock, the bulk export
// and import with its progress, and the audit log that records what they changed.
import { readFile } from 'node:fs/promises';
import { DEMO, expect, logIn, openBackofficeScreen, query, test } from './fixtures.ts';

const VIEWPORTS = [
  ['desktop', { width: 1280, height: 900 }],
  ['phone', { width: 390, height: 844 }],
] as const;

test("a Seller reads the month's sales as charts, with the numbers behind each one in a table", async ({ page, loggedInAs }) => {
  await loggedInAs(DEMO.seller);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  const charts = page.getByRole('region', { name: 'Sales charts' });
  const daily = charts.getByRole('figure', { name: 'Revenue and orders per day, last 30 days' });
  await daily.getByText('The numbers behind “Revenue and orders per day, last 30 days”').click();
  // 30 days and the header row, days without orders included.
  await expect(daily.getByRole('table').getByRole('row')).toHaveCount(31);
  await expect(charts.getByRole('figure', { name: 'Orders by status, last 30 days' })).toBeVisible();
  await expect(charts.getByRole('figure', { name: 'Units sold by category, last 30 days' })).toBeVisible();
  await expect(page.getByText('Loading charts...')).toHaveCount(0);
  for (const [label, viewport] of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await charts.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `e2e/screenshots/backoffice-${label}-dashboard-charts.png`, fullPage: true });
  }
});

test('a Seller restocks a sold-out copy from Low Stock, and the client who wished for it hears it is back', async ({
  page,
  browser,
  loggedInAs,
}) => {
  // A client of this story's own (the demo client's unread notices belong to the wishlist story), sharing the demo password.
  const fan = { account: `fan-${Date.now()}@example.com`, password: DEMO.client.password };
  await query(
    `INSERT INTO clients (first_name, last_name, phone_number, account, password_hash)
     SELECT 'Fan', 'Reader', '0555000000', $1, password_hash FROM clients WHERE account = $2`,
    [fan.account, DEMO.client.account],
  );
  // A copy sold out this week, the fastest seller of the month (so it heads the list), which the fan wishes for.
  const [copy] = await query<{ id: number; name: string }>(
    `UPDATE book_copies c SET quantity = 0, is_available = true FROM books b
     WHERE b.id = c.book_id AND c.id = (SELECT max(id) FROM book_copies) RETURNING c.id, b.name`,
  );
  await query(
    `WITH o AS (
       INSERT INTO orders (client_id, status, shipment_address, total_quantity, total_price)
       SELECT id, 'Shipped', 'Somewhere 1', 9999, 9999 FROM clients WHERE account = $1 RETURNING id
     )
     INSERT INTO order_items (order_id, book_copy_id, name, unit_price, quantity) SELECT id, $2, $3, 1, 9999 FROM o`,
    [fan.account, copy!.id, copy!.name],
  );
  await query('INSERT INTO wishlist_items (client_id, book_copy_id) SELECT id, $2 FROM clients WHERE account = $1', [
    fan.account,
    copy!.id,
  ]);

  await loggedInAs(DEMO.seller);
  await openBackofficeScreen(page, 'Low Stock');
  // The month's fastest seller heads the list (its earlier sales in this run add to the 9,999).
  const row = page.getByRole('row').nth(1);
  await expect(row.getByRole('cell').first()).toHaveText(String(copy!.id));
  // Only an Admin sets the threshold; it would show with the list, so the list is read first.
  await expect(page.getByLabel('Low-stock threshold')).toHaveCount(0);
  for (const [label, viewport] of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: `e2e/screenshots/backoffice-${label}-lowstock.png` });
  }
  await page.setViewportSize(VIEWPORTS[0][1]);
  await row.getByLabel(`Units to add to copy ${copy!.id}`).fill('25');
  await row.getByRole('button', { name: 'Restock' }).click();
  await expect(page.getByText(`Copy ${copy!.id} restocked: 25 in stock.`)).toBeVisible();

  const [notice] = await query<{ n: number }>(
    `SELECT count(*)::int AS n FROM notices n JOIN clients c ON c.id = n.client_id
     WHERE c.account = $1 AND n.book_copy_id = $2 AND n.read_at IS NULL`,
    [fan.account, copy!.id],
  );
  expect(notice!.n).toBe(1);
  const shopper = await browser.newPage();
  await logIn(shopper, fan);
  await expect(shopper.getByRole('banner').getByLabel('Notices: 1 unread notice')).toBeVisible();
  await shopper.close();
});

test('an Admin exports the catalog, imports a file with a bad row by skipping it, watches it finish, and finds the change in the audit log', async ({
  page,
  loggedInAs,
}) => {
  const [book] = await query<{ isbn13: string; price: string; quantity: number; copy_id: number }>(
    `SELECT b.isbn13, c.price::text, c.quantity, c.id AS copy_id FROM books b JOIN book_copies c ON c.book_id = b.id
     WHERE b.isbn13 IS NOT NULL AND c.id = (SELECT min(id) FROM book_copies WHERE book_id = b.id) ORDER BY b.id LIMIT 1`,
  );
  const newPrice = (Number(book!.price) + 1.25).toFixed(2);

  await loggedInAs(DEMO.admin);
  await openBackofficeScreen(page, 'Import & Export');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export Books as CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^bookshop-books-\d{4}-\d{2}-\d{2}\.csv$/);
  const exported = await readFile((await file.path())!, 'utf8');
  expect(exported.split('\n')[0]).toBe(
    'isbn,title,author,category,price,stock,available,exported_stock,exported_price,exported_available,copy_id,exported_ledger',
  );
  expect(exported).toContain(`${book!.isbn13},`);

  const csv = ['isbn,price,stock,available', `${book!.isbn13},${newPrice},${book!.quantity},true`, 'not-an-isbn,1.00,1,true'].join('\n');
  await page.getByLabel('CSV file').setInputFiles({ name: 'prices.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByRole('button', { name: 'Check File' }).click();
  await expect(page.getByRole('cell', { name: 'This is not a valid ISBN.' })).toBeVisible();
  const importButton = page.getByRole('button', { name: 'Import', exact: true });
  await expect(importButton).toBeDisabled();
  await page.getByLabel('Skip the invalid rows').check();
  for (const [label, viewport] of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: `e2e/screenshots/backoffice-${label}-importexport.png`, fullPage: true });
  }
  await page.setViewportSize(VIEWPORTS[0][1]);
  await importButton.click();
  await expect(page.getByText('Import finished: 1 row written.')).toBeVisible();
  await expect(page.getByRole('progressbar', { name: 'Import progress' })).toHaveAttribute('value', '1');
  const [saved] = await query<{ price: string }>('SELECT price::text FROM book_copies WHERE id = $1', [book!.copy_id]);
  expect(saved!.price).toBe(newPrice);

  await openBackofficeScreen(page, 'Audit Log');
  await page.getByLabel('Entity').selectOption('BookCopy');
  await page.getByRole('button', { name: 'Filter' }).click();
  const entry = page
    .getByRole('row')
    .filter({ hasText: `Book copies ${book!.copy_id}` })
    .first();
  await expect(entry).toContainText(`price: ${Number(book!.price)} → ${Number(newPrice)}`);
  for (const [label, viewport] of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: `e2e/screenshots/backoffice-${label}-auditlog.png` });
  }
});

// A sale during an edit (decision record 12): the Admin's save of a copy opened before the sale is
// refused, the screen says what changed, and saving again keeps both the sale and the Admin's change.
import { DEMO, expect, openBackofficeScreen, query, test } from './fixtures.ts';

test("an Admin changes a copy's price while a shopper buys one: the save says the copy was sold, and saving again keeps the sale", async ({
  page,
  loggedInAs,
}) => {
  const [copy] = await query<{ id: number }>(
    `INSERT INTO book_copies (book_id, quantity, price) SELECT min(id), 54, 9.99 FROM books RETURNING id`,
  );
  await loggedInAs(DEMO.admin);
  await openBackofficeScreen(page, 'Book Copies');
  await page.getByLabel('Search by ID').fill(String(copy!.id));
  await page.getByRole('button', { name: 'Search' }).click();
  const row = page.getByRole('row', { name: new RegExp(`^${copy!.id} `) });
  await row.getByRole('button', { name: 'Edit' }).click();
  await row.getByLabel('Price').fill('12.5');

  // Meanwhile a shopper's checkout takes one copy (as the checkout's own statement does).
  await query('UPDATE book_copies SET quantity = quantity - 1, units_sold = units_sold + 1 WHERE id = $1', [copy!.id]);

  await row.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('1 copy was sold since you opened this: stock is now 53. Check your changes and save again.')).toBeVisible();
  // Still editing, on top of the copy as it is now: the stock shows the sale, the price keeps the edit.
  await expect(row.getByLabel('Quantity')).toHaveValue('53');
  await expect(row.getByLabel('Price')).toHaveValue('12.5');
  await row.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Book copy updated successfully.')).toBeVisible();
  expect(await query('SELECT quantity, price::text FROM book_copies WHERE id = $1', [copy!.id])).toEqual([
    { quantity: 53, price: '12.50' },
  ]);
});

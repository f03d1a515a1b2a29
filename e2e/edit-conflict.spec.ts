// Two employees editing one book (decision record 12, amended): the save made on the book as it was
// before the other's is refused, the screen keeps the edit open on the book as it is now with this
// person's change on top, and saving again keeps both.
import { DEMO, expect, openBackofficeScreen, query, test } from './fixtures.ts';

test("an Admin sets a book's pages while another employee renames it: the save says so, and saving again keeps both changes", async ({
  page,
  loggedInAs,
}) => {
  const [book] = await query<{ id: number }>(
    `INSERT INTO books (name, search_text, author_id, type_id)
     SELECT 'Draft Title', 'draft title', min(a.id), (SELECT min(id) FROM book_types) FROM authors a RETURNING id`,
  );
  await loggedInAs(DEMO.admin);
  await openBackofficeScreen(page, 'Books');
  await page.getByLabel('Search by ID or name').fill(String(book!.id));
  await page.getByRole('button', { name: 'Search' }).click();
  const row = page.getByRole('row', { name: new RegExp(`^${book!.id} `) });
  await row.getByRole('button', { name: 'Edit' }).click();
  await row.getByLabel('Pages').fill('412');

  // Meanwhile another employee's save renames it (as the back-office's own statement does).
  await query(`UPDATE books SET name = 'Final Title', search_text = 'final title' WHERE id = $1`, [book!.id]);

  await row.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Someone else changed this book since you opened it. Check your changes and save again.')).toBeVisible();
  // Still editing, on top of the book as it is now: the other's name, this person's pages.
  await expect(row.getByLabel('Name')).toHaveValue('Final Title');
  await expect(row.getByLabel('Pages')).toHaveValue('412');
  await row.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Book updated successfully.')).toBeVisible();
  expect(await query('SELECT name, pages_number FROM books WHERE id = $1', [book!.id])).toEqual([
    { name: 'Final Title', pages_number: 412 },
  ]);
});

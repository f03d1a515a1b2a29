// Wishlist and back-in-stock: a client hearts a sold-out book, the shop restocks it, and the bell
// says so at the client's next visit.
import { request as apiRequest } from '@playwright/test';
import { DEMO, expect, query, test } from './fixtures.ts';

test('a client wishes for a sold-out book, the shop restocks it, and the bell tells the client at the next visit', async ({
  page,
  loggedInAs,
  baseURL,
}) => {
  const [copy] = await query<{ id: number; name: string; book_id: number; price: string }>(
    `UPDATE book_copies SET quantity = 0 WHERE id = (
       SELECT c.id FROM book_copies c JOIN books b ON b.id = c.book_id
       WHERE c.is_available AND c.quantity > 0 AND b.name ~ '^[A-Za-z ]{8,30}$' ORDER BY b.ratings_count DESC OFFSET 40 LIMIT 1)
     RETURNING id, (SELECT name FROM books WHERE id = book_id) AS name, book_id, price`,
  );
  await loggedInAs(DEMO.client);
  await page.getByLabel('Search books').fill(copy!.name);
  await page.getByLabel('Search books').press('Enter');
  const heart = page
    .getByRole('main')
    .getByRole('button', { name: `Wishlist: ${copy!.name}` })
    .first();
  await heart.click();
  await expect(heart).toHaveAttribute('aria-pressed', 'true');

  await page.getByRole('banner').getByText('Demo', { exact: true }).click();
  await page.getByRole('link', { name: 'Wishlist' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Wishlist' })).toBeVisible();
  const item = page.getByRole('listitem').filter({ hasText: copy!.name });
  await expect(item).toContainText('Out of Stock: we will tell you when it is back');
  for (const [label, viewport] of [
    ['desktop', { width: 1280, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: `e2e/screenshots/storefront-${label}-wishlist.png` });
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  // The shop restocks the copy: an Admin saves it in the back-office.
  const admin = await apiRequest.newContext({ baseURL });
  await admin.post('/api/public/authentication/login', { data: DEMO.admin });
  const saved = await admin.put('/api/employee/book-copy/', {
    data: { id: copy!.id, bookId: copy!.book_id, quantity: 6, price: Number(copy!.price), isAvailable: true },
  });
  expect(saved.status()).toBe(200);
  await admin.dispose();

  // The next visit.
  await page.goto('/');
  const bell = page.getByRole('banner').getByLabel('Notices: 1 unread notice');
  await bell.click();
  const notice = page.getByRole('link', { name: `${copy!.name} is back in stock.` });
  await expect(notice).toBeVisible();
  await page.screenshot({ path: 'e2e/screenshots/storefront-desktop-notices.png' });
  await notice.click();
  // Leaving the open bell reads its notices.
  await expect(page.getByRole('banner').getByLabel('Notices: 0 unread notices')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(copy!.name);
  await expect(page.getByText('6 available')).toBeVisible();
});

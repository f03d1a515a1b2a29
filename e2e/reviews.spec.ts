// Ratings and reviews by buyers: a client rates a book they received on its page, other shoppers
// read it, and an Admin hides it from the back-office, then shows it again.
import { bookPagePath } from '../packages/rules/src/page-addresses.ts';
import { DEMO, expect, openBackofficeScreen, query, test } from './fixtures.ts';

test('a client rates a book they received, shoppers read the review, and an Admin hides it and shows it again', async ({
  page,
  browser,
  loggedInAs,
}) => {
  const [bought] = await query<{ id: number; name: string }>(
    `SELECT c.id, b.name FROM orders o JOIN clients cl ON cl.id = o.client_id JOIN order_items oi ON oi.order_id = o.id
     JOIN book_copies c ON c.id = oi.book_copy_id JOIN books b ON b.id = c.book_id
     WHERE cl.account = $1 AND lower(o.status) IN ('delivered', 'success', 'shipped') AND c.is_available
       AND NOT EXISTS (SELECT 1 FROM book_reviews r WHERE r.book_id = b.id)
     ORDER BY o.id LIMIT 1`,
    [DEMO.client.account],
  );
  const path = bookPagePath(bought!.id, bought!.name);
  const text = `Read it in one sitting ${Date.now()}.`;

  await loggedInAs(DEMO.client);
  await page.goto(path);
  const reviews = page.getByRole('region', { name: 'Reviews' });
  await expect(reviews.getByText('No reviews yet.')).toBeVisible();
  await expect(reviews.getByText(/^\S+ \S\. is the name other shoppers see on your rating and review\.$/)).toBeVisible();
  await reviews.getByRole('group', { name: 'Rate this book' }).getByRole('radio', { name: '4 stars' }).check();
  await reviews.getByLabel('Your review (optional)').fill(text);
  await reviews.getByRole('button', { name: 'Save rating' }).click();
  await expect(reviews.getByText('Thank you! Your rating is saved.')).toBeVisible();
  await expect(reviews.getByRole('listitem').filter({ hasText: text }).getByRole('img', { name: '4 out of 5 stars' })).toBeVisible();
  await expect(reviews.getByRole('group', { name: 'Your rating' })).toBeVisible();

  for (const [label, viewport] of [
    ['desktop', { width: 1280, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(viewport);
    await reviews.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `e2e/screenshots/storefront-${label}-reviews.png` });
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  // Another shopper, signed out, reads it.
  await page.context().clearCookies();
  await page.goto(path);
  await expect(page.getByRole('region', { name: 'Reviews' }).getByText(text)).toBeVisible();

  await loggedInAs(DEMO.admin);
  await openBackofficeScreen(page, 'Reviews');
  const row = page.getByRole('row').filter({ hasText: text });
  await expect(row).toContainText('Shown');
  await page.screenshot({ path: 'e2e/screenshots/backoffice-desktop-reviews.png' });
  await row.getByRole('button', { name: 'Hide' }).click();
  await expect(page.getByText('Review hidden.')).toBeVisible();
  await expect(row).toContainText('Hidden');

  // A shopper in a fresh browser no longer sees it.
  const shopper = await browser.newPage();
  await shopper.goto(path);
  await expect(shopper.getByRole('region', { name: 'Reviews' }).getByText('No reviews yet.')).toBeVisible();

  // Shown again, as the Admin's list read it.
  await row.getByRole('button', { name: 'Show' }).click();
  await expect(page.getByText('Review shown again.')).toBeVisible();
  await expect(row).toContainText('Shown');
  await shopper.reload();
  await expect(shopper.getByRole('region', { name: 'Reviews' }).getByText(text)).toBeVisible();
  await shopper.close();
});

// The shop writes to its customers: an order placed in the browser arrives as an e-mail in the
// local mail catcher, whose page shows it (scripts/lib/mail-catcher.ts, started by scripts/e2e.ts).
import { buyOneCopy, expect, logIn, newDemoPasswordClient, query, test } from './fixtures.ts';

test('a client places an order and finds its confirmation, with the total, in the mail the shop sent', async ({ page }) => {
  const { account, password } = await newDemoPasswordClient('mail', { firstName: 'Mia', lastName: 'Mailer' });
  const [copy] = await query<{ id: number; price: string }>(
    'SELECT c.id, c.price::text FROM book_copies c WHERE c.quantity BETWEEN 5 AND 50 AND c.is_available ORDER BY c.id LIMIT 1',
  );
  await logIn(page, { account, password });
  // Signed in once the app has left /login.
  await expect(page).not.toHaveURL(/\/login$/);
  await buyOneCopy(page, copy!.id, '7 Rue des Livres, Oran');
  const [order] = await query<{ id: number }>('SELECT o.id FROM orders o JOIN clients c ON c.id = o.client_id WHERE c.account = $1', [
    account,
  ]);

  await page.goto(process.env.E2E_MAIL_PAGE!);
  const subject = `Your order #${order!.id} at Bookshop`;
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole('row', { name: new RegExp(account) }).getByRole('link', { name: subject })).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await page.getByRole('link', { name: subject }).click();
  await expect(page.getByRole('heading', { name: subject })).toBeVisible();
  await expect(page.getByText(`Total  1  $${Number(copy!.price).toFixed(2)}`)).toBeVisible();
  await expect(page.getByText('7 Rue des Livres, Oran')).toBeVisible();
});

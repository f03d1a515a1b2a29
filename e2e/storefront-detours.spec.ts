// The storefront's smaller paths that the happy-path stories do not click: removing and cancelling,
// the cart's notices, paging My Orders, a session refreshed behind the shopper's back, tab titles and
// the top-bar menus. Locators are roles and labels, as a person (or a screen reader) finds things.
import { DEMO, expect, query, test } from './fixtures.ts';

/** A copy on sale that nobody has in a cart, with its stock set to `stock`: a stable subject for cart tests. */
async function freeCopy(stock: number) {
  const [copy] = await query<{ id: number; name: string }>(
    `UPDATE book_copies c SET quantity = $1 FROM books b
      WHERE b.id = c.book_id AND c.id = (
        SELECT c2.id FROM book_copies c2
         WHERE c2.is_available AND c2.quantity > 0 AND NOT EXISTS (SELECT 1 FROM cart_items ci WHERE ci.book_copy_id = c2.id)
         ORDER BY c2.id LIMIT 1)
      RETURNING c.id, b.name`,
    [stock],
  );
  if (!copy) throw new Error('no copy on sale outside every cart');
  return copy;
}

const openDetail = async (page: import('@playwright/test').Page, copyId: number) => {
  await page.evaluate((id) => localStorage.setItem('BookId', String(id)), copyId);
  await page.goto('/Detail');
};

test('each screen names itself in the browser tab', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveTitle('Bookshop');
  await page.goto('/Fantasy');
  await expect(page).toHaveTitle('Fantasy · Bookshop');
  await page.goto('/contact');
  await expect(page).toHaveTitle(/^Contact.* · Bookshop$/);
  await page.goto('/login');
  await expect(page).toHaveTitle('Login · Bookshop');
});

test('a visitor opens the Categories menu and it closes on Escape, on a click elsewhere, and when the Sign In menu opens', async ({
  page,
}) => {
  await page.goto('/');
  const categories = page.getByText('Categories', { exact: true });
  const fantasy = page.getByRole('link', { name: 'Fantasy', exact: true });
  const goToLogin = page.getByRole('link', { name: 'Go to Login' });

  await categories.click();
  await expect(fantasy).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(fantasy).toBeHidden();

  await categories.click();
  await expect(fantasy).toBeVisible();
  await page.getByRole('heading', { name: 'New Releases' }).click();
  await expect(fantasy).toBeHidden();

  await categories.click();
  await page.getByText('Sign In', { exact: true }).click();
  await expect(goToLogin).toBeVisible();
  await expect(fantasy).toBeHidden();
});

test('a client removes a line from the cart and cancels a checkout, and nothing is ordered', async ({ page, loggedInAs }) => {
  const copy = await freeCopy(3);
  await loggedInAs(DEMO.client);
  await openDetail(page, copy.id);
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(page.getByText('Added to cart successfully!')).toBeVisible();

  const [before] = await query<{ n: number }>('SELECT count(*)::int AS n FROM orders');
  await page.getByRole('link', { name: /^Cart/ }).click();
  const line = page.getByRole('listitem').filter({ hasText: copy.name });
  await expect(line).toBeVisible();

  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  const checkout = page.getByRole('dialog');
  await checkout.getByLabel('Address').fill('3 Cancelled Street, Oran');
  await checkout.getByRole('button', { name: 'Cancel' }).click();
  await expect(checkout).toBeHidden();
  await expect(line).toBeVisible();
  const [after] = await query<{ n: number }>('SELECT count(*)::int AS n FROM orders');
  expect(after!.n).toBe(before!.n);

  await line.getByRole('button', { name: 'Remove' }).click();
  await expect(line).toHaveCount(0);
  expect(await query('SELECT 1 FROM cart_items WHERE book_copy_id = $1', [copy.id])).toEqual([]);
});

test("a client who already holds a copy's whole stock is told 'product is out of stock.', and the notice goes after 3 s", async ({
  page,
  loggedInAs,
}) => {
  const copy = await freeCopy(1);
  await page.clock.install();
  await loggedInAs(DEMO.client);
  await openDetail(page, copy.id);
  const add = page.getByRole('button', { name: 'Add to Cart' });
  await add.click();
  await expect(page.getByText('Added to cart successfully!')).toBeVisible();
  await page.clock.runFor(3100);
  await expect(page.getByText('Added to cart successfully!')).toHaveCount(0);

  // The notice's 3 s on a paused clock, so a loaded machine's real time spends none of them.
  await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1000));
  await add.click();
  await expect(page.getByText('product is out of stock.')).toBeVisible();
  await page.clock.runFor(2900);
  await expect(page.getByText('product is out of stock.')).toBeVisible();
  await page.clock.runFor(200);
  await expect(page.getByText('product is out of stock.')).toHaveCount(0);
  await page.clock.resume();
  expect(await query<{ quantity: number }>('SELECT quantity FROM cart_items WHERE book_copy_id = $1', [copy.id])).toEqual([
    { quantity: 1 },
  ]);

  await page.goto('/cart');
  await page.getByRole('listitem').filter({ hasText: copy.name }).getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByRole('listitem').filter({ hasText: copy.name })).toHaveCount(0);
});

test("a client whose session ended in another tab is told 'You must be logged in to add to cart.' and shown as signed out", async ({
  page,
  context,
  loggedInAs,
}) => {
  const copy = await freeCopy(3);
  await loggedInAs(DEMO.client);
  await openDetail(page, copy.id);
  await expect(page.getByText('Sign In', { exact: true })).toHaveCount(0);
  // The page has made its own signed-in calls (the client's rating of the book, the wishlist behind
  // the similar books' hearts, the bell) before the session ends, so Add to Cart is what meets the end.
  await expect(page.getByText('You can rate this book once an order of it has shipped.')).toBeVisible();
  await expect(
    page
      .getByRole('region', { name: 'Similar Books' })
      .getByRole('button', { name: /^Wishlist: / })
      .first(),
  ).toBeVisible();
  await page.waitForLoadState('networkidle');
  // Signing out elsewhere leaves this tab with no cookies at all: the call is refused and its refresh too.
  await context.clearCookies();
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(page.getByText('You must be logged in to add to cart.')).toBeVisible();
  await expect(page.getByText('Sign In', { exact: true })).toBeVisible();
  expect(await query('SELECT 1 FROM cart_items WHERE book_copy_id = $1', [copy.id])).toEqual([]);
});

test('a client whose access token expired keeps working: the refused call refreshes the session and is retried', async ({
  page,
  context,
  loggedInAs,
}) => {
  await loggedInAs(DEMO.client);
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'New Releases' })).toBeVisible();
  // The start-up refreshes are over, so none of them renews the cookie removed next.
  await page.waitForLoadState('networkidle');
  // The short-lived access cookie runs out; the refresh cookie is still good.
  await context.clearCookies({ name: 'bs_client_at' });
  const statuses: string[] = [];
  page.on('response', (response) => {
    const path = new URL(response.url()).pathname;
    if (path.startsWith('/api/client/orders') || path.endsWith('/refresh-tokens/Client')) statuses.push(`${response.status()} ${path}`);
  });

  // In-app navigation, so no start-up refresh runs first: the orders call itself meets the 401.
  await page.getByText('Demo', { exact: true }).click();
  await page.getByRole('link', { name: 'Orders' }).click();
  await expect(page.getByRole('heading', { name: 'My Orders' })).toBeVisible();
  await expect(page.getByRole('row').nth(1)).toBeVisible();
  expect(statuses.map((s) => s.replace(/\/api\/client\/orders\/.*/, '/api/client/orders'))).toEqual([
    '401 /api/client/orders',
    '200 /api/public/authentication/refresh-tokens/Client',
    '200 /api/client/orders',
  ]);
});

test('a client pages through My Orders, five orders a page, newest first', async ({ page, loggedInAs }) => {
  // Enough orders for at least two pages, whatever other stories ordered before.
  await query(
    `INSERT INTO orders (client_id, status, shipment_address, total_quantity, total_price, created_at)
     SELECT c.id, 'pending', 'Paging Street ' || n, 1, 9.99, now() - make_interval(days => 4000 + n)
       FROM clients c, generate_series(1, 6) n WHERE c.account = $1`,
    [DEMO.client.account],
  );
  const [{ orders }] = (await query<{ orders: number }>(
    'SELECT count(o.id)::int AS orders FROM clients c JOIN orders o ON o.client_id = c.id WHERE c.account = $1',
    [DEMO.client.account],
  )) as [{ orders: number }];
  const pages = Math.ceil(orders / 5);
  await loggedInAs(DEMO.client);
  await page.goto('/orders');
  const pager = page.getByRole('navigation', { name: 'Pages' });
  await expect(pager).toContainText(`Page 1 of ${pages}`);
  await expect(page.getByRole('row')).toHaveCount(6); // the header and five orders
  const firstPage = await page.getByRole('row').allTextContents();
  await pager.getByRole('button', { name: 'Next' }).click();
  await expect(pager).toContainText(`Page 2 of ${pages}`);
  await expect.poll(() => page.getByRole('row').allTextContents()).not.toEqual(firstPage);

  // The last page holds the oldest orders: the six added above, long before any other.
  for (let p = 2; p < pages; p++) await pager.getByRole('button', { name: 'Next' }).click();
  await expect(pager).toContainText(`Page ${pages} of ${pages}`);
  await expect(pager.getByRole('button', { name: 'Next' })).toBeDisabled();
  await expect(page.getByRole('row').last()).toContainText('Paging Street 6');

  await pager.getByRole('button', { name: /Prev/ }).click();
  await expect(pager).toContainText(`Page ${pages - 1} of ${pages}`);
});

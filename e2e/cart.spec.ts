import { DEMO, expect, query, test } from './fixtures.ts';

test('a client adds books from the quick view and the detail page, changes quantities, checks out, and sees the order and the lower stock', async ({
  page,
  loggedInAs,
}) => {
  await loggedInAs(DEMO.client);
  await page.goto('/');
  // The top bar's cart link says how many books the cart holds.
  const cartLink = page.getByRole('banner').getByRole('link', { name: /^Cart\b/ });

  // From the home quick view.
  const list = page.getByRole('region', { name: 'New Releases' });
  await list.getByRole('button', { name: 'Add to Cart' }).first().click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText(/available|Out of Stock/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(dialog.getByText('Added to cart successfully!')).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(cartLink).toHaveAccessibleName('Cart, 1 item');

  // From a detail page: remember its stock to see it drop after the order.
  const [copy] = await query<{ id: number; quantity: number; name: string }>(
    'SELECT c.id, c.quantity, b.name FROM book_copies c JOIN books b ON b.id = c.book_id WHERE c.quantity BETWEEN 5 AND 50 AND c.is_available ORDER BY c.id DESC LIMIT 1',
  );
  await page.evaluate((id) => localStorage.setItem('BookId', String(id)), copy!.id);
  await page.goto('/Detail');
  await expect(page.getByText(`${copy!.quantity} available`)).toBeVisible();
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(page.getByText('Added to cart successfully!')).toBeVisible();
  await expect(cartLink).toHaveAccessibleName('Cart, 2 items');

  await cartLink.click();
  const stepper = page.getByRole('group', { name: `Quantity of ${copy!.name}`, exact: true });
  const quantity = stepper.getByLabel('Quantity', { exact: true });
  await expect(stepper.getByRole('button', { name: 'Decrease quantity' })).toBeDisabled();
  await stepper.getByRole('button', { name: 'Increase quantity' }).click();
  await expect(quantity).toHaveText('2');
  await stepper.getByRole('button', { name: 'Increase quantity' }).click();
  await expect(quantity).toHaveText('3');
  await stepper.getByRole('button', { name: 'Decrease quantity' }).click();
  await expect(quantity).toHaveText('2');
  await expect(cartLink).toHaveAccessibleName('Cart, 3 items');

  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  const modal = page.getByRole('dialog');
  await modal.getByLabel('Address').fill(' abc ');
  await modal.getByRole('button', { name: 'Confirm Order' }).click();
  await expect(modal.getByRole('alert')).toHaveText('Please enter a valid shipping address.');
  await modal.getByLabel('Address').fill('12 Rue Didouche Mourad, Algiers');
  await modal.getByRole('button', { name: 'Confirm Order' }).click();
  await expect(page.getByText('Your cart is empty.')).toBeVisible();
  await expect(cartLink).toHaveAccessibleName('Cart');

  await page.goto('/orders');
  const newest = page.getByRole('rowgroup').last().getByRole('row').first();
  await expect(newest).toContainText('pending');
  await expect(newest).toContainText('12 Rue Didouche Mourad, Algiers');
  await expect(newest.getByText('pending', { exact: true })).toHaveClass(/status-yellow/);

  await page.goto('/Detail');
  await expect(page.getByText(`${copy!.quantity - 2} available`)).toBeVisible();

  // The address is remembered for next time.
  await page.goto('/');
  await list.getByRole('button', { name: 'Add to Cart' }).first().click();
  await page.getByRole('dialog').getByRole('button', { name: 'Add to Cart' }).click();
  await expect(page.getByRole('dialog').getByText('Added to cart successfully!')).toBeVisible();
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
  await page.goto('/cart');
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  await expect(page.getByRole('dialog').getByLabel('Address')).toHaveValue('12 Rue Didouche Mourad, Algiers');
});

test('a shopper whose book changed price since it went into the cart sees the new total before any order is placed', async ({
  page,
  loggedInAs,
}) => {
  const account = `price-${Date.now()}@example.com`;
  await query(
    "INSERT INTO clients (first_name, last_name, phone_number, account, password_hash) SELECT 'Price', 'Watcher', '0555000000', $1, password_hash FROM clients WHERE account = $2",
    [account, DEMO.client.account],
  );
  const [copy] = await query<{ id: number; price: string }>(
    'SELECT id, price::text FROM book_copies WHERE quantity >= 5 AND is_available ORDER BY id LIMIT 1 OFFSET 7',
  );
  try {
    await loggedInAs({ account, password: DEMO.client.password });
    await page.evaluate((id) => localStorage.setItem('BookId', String(id)), copy!.id);
    await page.goto('/Detail');
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await expect(page.getByText('Added to cart successfully!')).toBeVisible();
    await page.getByRole('link', { name: /Cart/ }).click();
    const total = page.getByRole('main').getByText(/^Total:/);
    const oldTotal = `$${Number(copy!.price).toFixed(2)}`;
    await expect(total).toHaveText(`Total: ${oldTotal}`);

    await query('UPDATE book_copies SET price = price + 1 WHERE id = $1', [copy!.id]);
    await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
    await page.getByRole('dialog').getByLabel('Address').fill('12 Rue Didouche Mourad, Algiers');
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm Order' }).click();
    await expect(page.getByText('Your cart has changed: please review the new total.')).toBeVisible();
    const newTotal = `$${(Number(copy!.price) + 1).toFixed(2)}`;
    await expect(total).toHaveText(`Total: ${newTotal}`);
    expect(await query('SELECT o.id FROM orders o JOIN clients c ON c.id = o.client_id WHERE c.account = $1', [account])).toHaveLength(0);

    await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
    await expect(page.getByRole('dialog').getByText(`Total: ${newTotal}`)).toBeVisible();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm Order' }).click();
    await expect(page.getByText('Order placed successfully!')).toBeVisible();
  } finally {
    await query('UPDATE book_copies SET price = $2::numeric WHERE id = $1', [copy!.id, copy!.price]);
  }
});

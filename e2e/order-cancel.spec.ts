// Cancelling an order before it ships (beyond the spec): the client from My Orders after a
// confirmation, staff from the back-office's Orders screen with a reason; the stock comes back.
import type { Page } from '@playwright/test';
import { buyOneCopy, DEMO, expect, logIn, newDemoPasswordClient, openBackofficeScreen, query, test } from './fixtures.ts';

const newClient = (name: string) => newDemoPasswordClient(name, { firstName: 'Cancel', lastName: 'Tester' });

const stockOf = async (copyId: number) =>
  (await query<{ quantity: number }>('SELECT quantity FROM book_copies WHERE id = $1', [copyId]))[0]!.quantity;

/** The signed-in client buys one copy of a book in stock from its page; answers the copy, its stock before, and the order. */
async function buyOne(page: Page, address: string) {
  const [copy] = await query<{ id: number; quantity: number }>(
    'SELECT id, quantity FROM book_copies WHERE quantity BETWEEN 5 AND 50 AND is_available ORDER BY id DESC LIMIT 1 OFFSET 3',
  );
  await buyOneCopy(page, copy!.id, address);
  const [order] = await query<{ id: number }>('SELECT id FROM orders WHERE shipment_address = $1', [address]);
  expect(await stockOf(copy!.id)).toBe(copy!.quantity - 1);
  return { copyId: copy!.id, stockBefore: copy!.quantity, orderId: order!.id };
}

test('a client places an order, thinks better of it, and cancels it from My Orders after confirming; the book is back in stock', async ({
  page,
  loggedInAs,
}) => {
  await loggedInAs(await newClient('cancel'));
  const address = `7 Rue des Remords, Oran ${Date.now()}`;
  const { copyId, stockBefore, orderId } = await buyOne(page, address);

  await page.goto('/orders');
  const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: address }) });
  await expect(row.getByRole('cell', { name: 'pending', exact: true })).toBeVisible();

  // The first thought: keep it after all.
  await row.getByRole('button', { name: `Cancel order ${orderId}` }).click();
  const dialog = page.getByRole('dialog', { name: `Cancel order ${orderId}` });
  await expect(dialog.getByRole('heading', { name: `Cancel order #${orderId}?` })).toBeVisible();
  await dialog.getByRole('button', { name: 'Keep order' }).click();
  await expect(dialog).toBeHidden();
  await expect(row.getByRole('cell', { name: 'pending', exact: true })).toBeVisible();

  // Then for good.
  await row.getByRole('button', { name: `Cancel order ${orderId}` }).click();
  await dialog.getByRole('button', { name: 'Yes, cancel order' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Order #${orderId} was cancelled.` })).toBeVisible();
  await expect(row.getByRole('cell', { name: 'cancelled', exact: true })).toBeVisible();
  await expect(row.getByRole('button', { name: `Cancel order ${orderId}` })).toHaveCount(0);

  expect(await stockOf(copyId)).toBe(stockBefore);
  const [movement] = await query<{ reason: string; change: number }>(
    'SELECT reason, change FROM stock_movements WHERE copy_id = $1 ORDER BY id DESC LIMIT 1',
    [copyId],
  );
  expect(movement).toEqual({ reason: 'cancellation', change: 1 });
  const mails = await query<{ payload: { status: string } }>(
    "SELECT payload FROM mail_outbox WHERE kind = 'order_status' AND order_id = $1",
    [orderId],
  );
  expect(mails.map((m) => m.payload.status)).toEqual(['cancelled']);
});

test('a Seller cancels an unshipped order from the Orders screen, giving the reason the client will read', async ({ page, loggedInAs }) => {
  await loggedInAs(await newClient('staff-cancel'));
  const { copyId, stockBefore, orderId } = await buyOne(page, `9 Rue du Stock, Blida ${Date.now()}`);
  await page.context().clearCookies();

  await logIn(page, DEMO.seller);
  await expect(page).not.toHaveURL(/\/login$/);
  await openBackofficeScreen(page, 'Orders');
  const card = page.getByRole('article', { name: `Order ${orderId}`, exact: true });
  await card.getByRole('button', { name: 'Cancel Order' }).click();
  const dialog = page.getByRole('dialog', { name: `Cancel order ${orderId}` });
  await dialog.getByRole('button', { name: 'Cancel order' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Please give the reason for cancelling this order.');
  await dialog.getByLabel('Reason').fill('The last copy was damaged in the warehouse.');
  await dialog.getByRole('button', { name: 'Cancel order' }).click();
  await expect(card.getByText('Order cancelled; its stock is back.')).toBeVisible();
  await expect(card.getByText('cancelled', { exact: true })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Cancel Order' })).toHaveCount(0);

  expect(await stockOf(copyId)).toBe(stockBefore);
  const [mail] = await query<{ payload: { status: string; reason: string } }>(
    "SELECT payload FROM mail_outbox WHERE kind = 'order_status' AND order_id = $1",
    [orderId],
  );
  expect(mail!.payload).toEqual({ status: 'cancelled', reason: 'The last copy was damaged in the warehouse.' });
});

// Shared e2e fixtures: signing in through the real login screen, the database for checks, and the
// identity emulator's verification links.
import { test as base, expect, type Page } from '@playwright/test';
import pg from 'pg';
import { DEMO_LOGINS } from '../seed/seed-data.ts';
import { paths } from '../web/src/lib/paths.ts';

export { DEMO_LOGINS as DEMO };

export async function logIn(page: Page, who: { account: string; password: string }) {
  await page.goto('/login');
  await page.getByLabel('Account').fill(who.account);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Login' }).click();
}

/** Fills spec 5's sign-up form and sends it. */
export async function signUp(page: Page, person: { firstName: string; lastName: string; email: string; password: string; phone: string }) {
  await page.getByLabel('First Name').fill(person.firstName);
  await page.getByLabel('Last Name').fill(person.lastName);
  await page.getByLabel('Email (Account)').fill(person.email);
  await page.getByLabel('Password').fill(person.password);
  await page.getByLabel('Algerian Phone Number').fill(person.phone);
  await page.getByRole('button', { name: 'Sign up' }).click();
}

/** A client of the calling test's own, with the demo client's password and an empty cart. */
export async function newDemoPasswordClient(prefix: string, name: { firstName: string; lastName: string }) {
  const account = `${prefix}-${Date.now()}@example.com`;
  await query(
    `INSERT INTO clients (first_name, last_name, phone_number, account, password_hash)
     SELECT $1, $2, '0555000000', $3, password_hash FROM clients WHERE account = $4`,
    [name.firstName, name.lastName, account, DEMO_LOGINS.client.account],
  );
  return { account, password: DEMO_LOGINS.client.password };
}

/** The signed-in client buys one copy from its page and checks out to `address`, through the storefront's screens. */
export async function buyOneCopy(page: Page, copyId: number, address: string) {
  await page.evaluate((id) => localStorage.setItem('BookId', String(id)), copyId);
  await page.goto('/Detail');
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(page.getByText('Added to cart successfully!')).toBeVisible();
  await page.goto('/cart');
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  await page.getByRole('dialog').getByLabel('Address').fill(address);
  await page.getByRole('dialog').getByRole('button', { name: 'Confirm Order' }).click();
  await expect(page.getByText('Your cart is empty.')).toBeVisible();
}

/** Every back-office screen's address, from the app's own registry of paths: a new screen is visited by every test that walks them all. */
export const BACKOFFICE_PATHS = Object.values(paths.backoffice);

/** The back-office menu's links, and the heading each screen shows once it has rendered. */
const BACKOFFICE_SCREENS = {
  Dashboard: 'Dashboard',
  Clients: 'All Clients',
  Orders: 'Orders',
  Authors: 'Authors',
  Books: 'Books',
  'Book Copies': 'Book Copies',
  Employees: 'Employees',
  Account: 'Your Information',
  Reviews: 'Reviews',
  'Low Stock': 'Low Stock',
  'Import & Export': 'Import & Export',
  'Audit Log': 'Audit Log',
  'E-mail': 'E-mail',
} as const;

/**
 * Opens a back-office screen from the menu and waits for its heading. Each screen is loaded lazily
 * and the router keeps the previous one on show meanwhile, so without the wait a test can type into
 * the previous screen's field of the same label (Authors and Books both have 'Search by ID or name').
 */
export async function openBackofficeScreen(page: Page, link: keyof typeof BACKOFFICE_SCREENS) {
  await page.getByRole('navigation', { name: 'Back-office' }).getByRole('link', { name: link, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: BACKOFFICE_SCREENS[link], exact: true })).toBeVisible();
}

/**
 * Screenshots of each of `screens` at desktop and then at phone width, each taken once the screen has
 * loaded (no request left, no 'Loading...'), written where `path` says for that width and screen.
 */
export async function screenshotEachScreen(
  page: Page,
  screens: readonly string[],
  path: (width: 'desktop' | 'phone', screen: string) => string,
) {
  for (const [width, viewport] of [
    ['desktop', { width: 1280, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(viewport);
    for (const screen of screens) {
      await page.goto(screen);
      await page.waitForLoadState('networkidle');
      await expect(page.getByText('Loading...')).toHaveCount(0);
      await page.screenshot({ path: path(width, screen) });
    }
  }
}

export async function query<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: process.env.E2E_DATABASE_URL });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** The last verification e-mail the identity emulator "sent" to this address: its link and code. */
export async function verificationEmail(email: string) {
  const res = await fetch(`http://${process.env.E2E_EMULATOR_HOST}/emulator/v1/projects/demo-bookshop/oobCodes`);
  const { oobCodes } = (await res.json()) as { oobCodes: { email: string; oobLink: string; oobCode: string; requestType: string }[] };
  const sent = oobCodes.filter((c) => c.email === email && c.requestType === 'VERIFY_EMAIL').at(-1);
  if (!sent) throw new Error(`no verification e-mail for ${email}`);
  return sent;
}

/** Follows the verification link the identity emulator "sent" to this address, as the user would. */
export async function verifyEmail(email: string) {
  await fetch((await verificationEmail(email)).oobLink);
}

export const test = base.extend<{ loggedInAs: (who: { account: string; password: string }) => Promise<void> }>({
  loggedInAs: async ({ page }, use) => {
    await use(async (who) => {
      await logIn(page, who);
      // Signed in once the app has left /login (the button reads 'Logging in...' meanwhile).
      await expect(page).not.toHaveURL(/\/login$/);
    });
  },
});
export { expect };

// Shared e2e fixtures: signing in through the real login screen, the database for checks, and the
// identity emulator's verification links.
import { test as base, expect, type Page } from '@playwright/test';
import pg from 'pg';

export { DEMO_LOGINS as DEMO } from '../seed/seed-data.ts';

export async function logIn(page: Page, who: { account: string; password: string }) {
  await page.goto('/login');
  await page.getByLabel('Account').fill(who.account);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Login' }).click();
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

/** Follows the verification link the identity emulator "sent" to this address, as the user would. */
export async function verifyEmail(email: string) {
  const res = await fetch(`http://${process.env.E2E_EMULATOR_HOST}/emulator/v1/projects/demo-bookshop/oobCodes`);
  const { oobCodes } = (await res.json()) as { oobCodes: { email: string; oobLink: string; requestType: string }[] };
  const link = oobCodes.filter((c) => c.email === email && c.requestType === 'VERIFY_EMAIL').at(-1);
  if (!link) throw new Error(`no verification e-mail for ${email}`);
  await fetch(link.oobLink);
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

// What a shopper sees of the production-safety rules: password rules before any account exists,
// and sessions that survive several tabs refreshing at once.
import { DEMO, expect, signUp, test } from './fixtures.ts';

test('a visitor who picks a common password is told so before any provider account is created', async ({ page }) => {
  const email = `common-${Date.now()}@example.com`;
  await page.goto('/signup');
  await signUp(page, { firstName: 'Rami', lastName: 'Reader', email, password: 'iloveyou', phone: '0661234567' });
  await expect(page.getByRole('alert')).toHaveText('This password is too common. Please choose a less guessable one.');
  await page.getByLabel('Password').fill(email);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByRole('alert')).toHaveText('Your password must not be your e-mail address.');
  await expect(page.getByRole('heading', { name: 'Verify your e-mail' })).toHaveCount(0);
  // The identity provider never heard of this address.
  const res = await fetch(`http://${process.env.E2E_EMULATOR_HOST}/emulator/v1/projects/demo-bookshop/oobCodes`);
  const { oobCodes } = (await res.json()) as { oobCodes: { email: string }[] };
  expect(oobCodes.some((c) => c.email === email)).toBe(false);
});

test('a shopper who opens the shop in three tabs at once stays signed in in all of them', async ({ page, context, loggedInAs }) => {
  await loggedInAs(DEMO.client);
  // Each new tab refreshes the session on start, all at the same moment, with the same refresh token.
  const tabs = await Promise.all([context.newPage(), context.newPage(), context.newPage()]);
  await Promise.all(tabs.map((tab) => tab.goto('/account')));
  for (const tab of tabs) await expect(tab.getByLabel('Email')).toHaveValue(DEMO.client.account);
  await page.reload();
  await page.goto('/orders');
  await expect(page.getByRole('heading', { name: 'My Orders' })).toBeVisible();
});

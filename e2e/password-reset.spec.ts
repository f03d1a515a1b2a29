// Forgot password, against the identity emulator as sign-up is: the provider's reset e-mail proves
// the client owns the address, and its link leads to the shop's screen for a new password.
import { expect, logIn, test, verifyEmail } from './fixtures.ts';

const emulator = () => `http://${process.env.E2E_EMULATOR_HOST}`;

/** A client signed up the spec's way: a verified provider account, then the sign-up body alone. */
async function signedUpClient(request: import('@playwright/test').APIRequestContext, email: string, password: string) {
  await fetch(`${emulator()}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=demo-api-key`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, returnSecureToken: true }),
  }).then(async (res) => {
    const { idToken } = (await res.json()) as { idToken: string };
    await fetch(`${emulator()}/identitytoolkit.googleapis.com/v1/accounts:sendOobCode?key=demo-api-key`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ requestType: 'VERIFY_EMAIL', idToken }),
    });
  });
  await verifyEmail(email);
  const res = await request.post('/api/public/sign-up/', {
    data: { firstName: 'Rae', lastName: 'Set', phoneNumber: '0551234567', account_informations: { account: email, password } },
  });
  expect(res.status()).toBe(200);
}

/** The code of the last password-reset e-mail the emulator "sent" to this address, if any yet. */
async function resetCode(email: string) {
  const res = await fetch(`${emulator()}/emulator/v1/projects/demo-bookshop/oobCodes`);
  const { oobCodes } = (await res.json()) as { oobCodes: { email: string; requestType: string; oobCode: string }[] };
  return oobCodes.filter((c) => c.email === email && c.requestType === 'PASSWORD_RESET').at(-1)?.oobCode;
}

/** The link of that e-mail, as the shop's action URL; the API sends it just after answering. */
async function resetLink(email: string) {
  await expect.poll(() => resetCode(email), { message: `a password-reset e-mail for ${email}` }).toBeDefined();
  const code = (await resetCode(email))!;
  // The provider's e-mail template points its action URL at /reset-password (see docs/security.md).
  return `/reset-password?mode=resetPassword&oobCode=${encodeURIComponent(code)}&lang=en`;
}

test('a client who forgot the password gets the reset e-mail, chooses a new password, and logs in with it; the old session has ended', async ({
  page,
}) => {
  const email = `forgot-${Date.now()}@example.com`;
  await signedUpClient(page.request, email, 'Secret123!');
  await page.goto('/');
  await expect(page.getByRole('banner').getByText('Rae', { exact: true })).toBeVisible();

  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page.getByRole('heading', { name: 'Forgot password' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('status')).toHaveText(
    'If a client account uses this e-mail, we have sent it a link to choose a new password.',
  );

  const link = await resetLink(email);
  await page.goto(link);
  await page.getByLabel('New password', { exact: true }).fill('Lantern-Harbor-92');
  await page.getByLabel('Confirm new password').fill('Lantern-Harbor-29');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByRole('alert')).toHaveText('The two passwords do not match.');
  await page.getByLabel('Confirm new password').fill('Lantern-Harbor-92');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByRole('status')).toHaveText('Your password has been changed. Please log in with your new password.');

  // The session this browser had before the reset is over: once the session is known, the account page sends
  // the browser to log in (the banner's name alone would be absent before then too).
  await page.goto('/account');
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByRole('banner').getByText('Rae', { exact: true })).toHaveCount(0);

  await logIn(page, { account: email, password: 'Secret123!' });
  await expect(page.getByText('Invalid account or password.')).toBeVisible();
  await page.getByLabel('Password').fill('Lantern-Harbor-92');
  await page.getByRole('button', { name: 'Login' }).click();
  // Back where the login was asked for (logIn reloaded the login page, which keeps its history entry's state).
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole('banner').getByText('Rae', { exact: true })).toBeVisible();

  // The link works once.
  await page.goto(link);
  await page.getByLabel('New password', { exact: true }).fill('Another-Harbor-93');
  await page.getByLabel('Confirm new password').fill('Another-Harbor-93');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByText('This reset link is invalid, used or expired. Please ask for a new one.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Ask for a new link' })).toBeVisible();
});

test('screenshots of the forgot-password and new-password screens at phone and desktop width', async ({ page }) => {
  for (const [label, viewport] of [
    ['desktop', { width: 1280, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.goto('/forgot-password');
    await expect(page.getByRole('heading', { name: 'Forgot password' })).toBeVisible();
    await page.screenshot({ path: `e2e/screenshots/storefront-${label}-forgot-password.png` });
    await page.goto('/reset-password?mode=resetPassword&oobCode=example');
    await expect(page.getByLabel('Confirm new password')).toBeVisible();
    await page.screenshot({ path: `e2e/screenshots/storefront-${label}-reset-password.png` });
  }
});

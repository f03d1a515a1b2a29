import { DEMO, expect, logIn, newDemoPasswordClient, signUp, test, verificationEmail, verifyEmail } from './fixtures.ts';

test('a new visitor signs up, verifies the e-mail, edits the profile, changes the password, signs out and back in', async ({ page }) => {
  const email = `reader-${Date.now()}@example.com`;
  await page.goto('/signup');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByRole('alert')).toHaveText('All fields are required.');
  await signUp(page, { firstName: 'Nadia', lastName: 'Reader', email, password: 'Reader123!', phone: '0812345678' });
  await expect(page.getByRole('alert')).toHaveText('Phone number must be Algerian and start with 05, 06, or 07.');
  await page.getByLabel('Algerian Phone Number').fill('0661234567');
  await page.getByRole('button', { name: 'Sign up' }).click();

  await expect(
    page.getByText(
      'A verification email has been sent to your account in inbox or junk/spam folder. Please verify your email before proceeding.',
    ),
  ).toBeVisible();
  await page.getByRole('button', { name: 'I Verified My Email' }).click();
  await expect(page.getByText('Email is not verified yet.')).toBeVisible();
  await page.getByRole('button', { name: 'Resend Verification Email' }).click();
  await expect(page.getByText('Verification email resent.')).toBeVisible();

  await verifyEmail(email);
  await page.getByRole('button', { name: 'I Verified My Email' }).click();
  await expect(page).toHaveURL(/\/$/);
  // The account menu's toggle (a <summary>, which has no role) reads the first name in the top bar.
  const topBar = page.getByRole('banner');
  await expect(topBar.getByText('Nadia', { exact: true })).toBeVisible();

  await topBar.getByText('Nadia', { exact: true }).click();
  await page.getByRole('link', { name: 'Account' }).click();
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await page.getByLabel('Phone number').fill('123');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByRole('alert')).toHaveText('Phone number must be a valid Algerian number (e.g. 07XXXXXXXX).');
  await page.getByLabel('First name').fill('Nadine');
  await page.getByLabel('Phone number').fill('0771234567');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Profile updated successfully!')).toBeVisible();
  await expect(topBar.getByText('Nadine', { exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Change password' }).click();
  await page.getByLabel('Current password').fill('Reader123!');
  await page.getByLabel('New password').fill('Reader456!');
  await page.getByRole('button', { name: 'Change Password' }).click();
  await expect(page.getByText('Password changed successfully!')).toBeVisible();

  await topBar.getByText('Nadine', { exact: true }).click();
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(topBar.getByText('Sign In', { exact: true })).toBeVisible();
  await expect(topBar.getByText('Nadine', { exact: true })).toHaveCount(0);

  await logIn(page, { account: email, password: 'Reader123!' });
  await expect(page.getByText('Invalid account or password.')).toBeVisible();
  await page.getByLabel('Password').fill('Reader456!');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(topBar.getByText('Nadine', { exact: true })).toBeVisible();
});

test('an Admin logs in and lands on the dashboard; Logout returns to the storefront', async ({ page, loggedInAs }) => {
  await loggedInAs(DEMO.admin);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText('Total Orders')).toBeVisible();
  await page.reload();
  await expect(page.getByText('Total Orders')).toBeVisible();
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByRole('heading', { name: 'Recommended' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('UserType'))).toBe('Client');
});

test('a visitor who left sign-up half-way comes back, signs up again with the same e-mail and password, and finishes', async ({ page }) => {
  const email = `returning-${Date.now()}@example.com`;
  const fillSignUp = (password: string) => signUp(page, { firstName: 'Yacine', lastName: 'Back', email, password, phone: '0551234567' });
  const verificationStep = page.getByRole('heading', { name: 'Verify your e-mail' });

  await page.goto('/signup');
  await fillSignUp('Returning123!');
  await expect(verificationStep).toBeVisible();
  // The tab is reloaded before the e-mail is verified: the form starts again.
  await page.reload();
  await fillSignUp('Another456!');
  await expect(page.getByRole('alert')).toHaveText(
    'This e-mail already has an account with another password. Log in, or sign up with another e-mail.',
  );
  await fillSignUp('Returning123!');
  await expect(verificationStep).toBeVisible();

  // Verified in the mail, then the tab is closed before "I Verified My Email": the next sign-up goes straight through.
  await verifyEmail(email);
  await page.reload();
  await fillSignUp('Returning123!');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('banner').getByText('Yacine', { exact: true })).toBeVisible();
});

test("a visitor opens the verification e-mail's link in the shop (the provider's action URL) and finishes signing up", async ({
  page,
  context,
}) => {
  const email = `linked-${Date.now()}@example.com`;
  await page.goto('/signup');
  await signUp(page, { firstName: 'Lina', lastName: 'Link', email, password: 'Linked123!', phone: '0551234567' });
  await expect(page.getByRole('heading', { name: 'Verify your e-mail' })).toBeVisible();

  // The e-mail's link, as the provider writes it with the shop's action URL (docs/security.md), opened in a new tab.
  const { oobCode } = await verificationEmail(email);
  const mail = await context.newPage();
  await mail.goto(`/reset-password?mode=verifyEmail&oobCode=${encodeURIComponent(oobCode)}&apiKey=demo-api-key&lang=en`);
  await expect(mail.getByText('Your e-mail address is verified.', { exact: false })).toBeVisible();
  // The link works once.
  await mail.reload();
  await expect(mail.getByText('This verification link is invalid, used or expired.', { exact: false })).toBeVisible();

  await page.getByRole('button', { name: 'I Verified My Email' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('banner').getByText('Lina', { exact: true })).toBeVisible();
});

test('a shopper who left the shop signed in on a phone ends that session from the laptop, and the phone is signed out', async ({
  page,
  browser,
  loggedInAs,
}) => {
  const shopper = await newDemoPasswordClient('sessions', { firstName: 'Lina', lastName: 'Two-Devices' });
  const phone = await browser.newContext({
    userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  });
  try {
    const phonePage = await phone.newPage();
    await logIn(phonePage, shopper);
    await expect(phonePage).not.toHaveURL(/\/login$/);
    await phonePage.goto('/account');
    await expect(phonePage.getByLabel('First name')).toHaveValue('Lina');

    await loggedInAs(shopper);
    await page.goto('/account');
    const sessions = page.getByRole('region', { name: 'Your sessions' });
    await expect(sessions.getByRole('listitem').filter({ hasText: 'This session' })).toContainText('Chrome on Linux');
    await sessions.getByRole('button', { name: /^End session: Chrome on Android, last active / }).click();
    const form = sessions.getByRole('form', { name: 'End sessions' });
    await form.getByLabel('Password').fill(shopper.password);
    await form.getByRole('button', { name: 'End 1 session' }).click();
    await expect(sessions.getByText('Ended 1 session.')).toBeVisible();
    await expect(sessions.getByText('Chrome on Android')).toHaveCount(0);

    // The phone's next visit finds its session ended and asks it to sign in again.
    await phonePage.reload();
    await expect(phonePage).toHaveURL(/\/login/);
    // The laptop is still signed in.
    await page.reload();
    await expect(page.getByLabel('First name')).toHaveValue('Lina');
  } finally {
    await phone.close();
  }
});

// Staff second factor in a real Chromium. Passkeys: the DevTools virtual authenticator (CDP's
// WebAuthn domain) stands in for a platform authenticator with user verification; an Admin adds a
// passkey on the Account screen, then signs in with it after the password, and without it. An
// authenticator app: its codes are computed from the secret the screen shows, as the app would.
import type { CDPSession, Page } from '@playwright/test';
import { totpCode } from '../api/src/modules/second-factor/codes.ts';
import { DEMO, expect, logIn, query, test } from './fixtures.ts';

// WebAuthn binds a passkey to a host name, which an IP address (the shop's 127.0.0.1) cannot be:
// these stories reach the same server as localhost, a secure context like any loopback address.
test.use({ baseURL: process.env.E2E_BASE_URL?.replace('127.0.0.1', 'localhost') });

/** A new Admin of this story's own (the demo Admin keeps signing in with a password alone). */
async function newAdmin() {
  const email = `mfa-admin-${Date.now()}@bookshop.test`;
  const [row] = await query<{ id: number }>(
    `INSERT INTO employees (first_name, last_name, gender, birth_date, email, phone_number, address, password_hash, role)
     SELECT 'Pia', 'Passkey', 'Female', '1988-03-04', $1, '0555000001', '2 Main Street', password_hash, 'Admin'
     FROM employees WHERE email = $2 RETURNING id`,
    [email, DEMO.admin.account],
  );
  return { id: row!.id, account: email, password: DEMO.admin.password };
}

/** A platform authenticator that holds discoverable credentials and verifies its user at once. */
async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

const credentials = async ({ cdp, authenticatorId }: { cdp: CDPSession; authenticatorId: string }) =>
  (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;

async function logOut(page: Page) {
  await page.getByRole('navigation', { name: 'Back-office' }).getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/$/);
}

test('an Admin adds a passkey on the Account screen, signs in with it after the password and without it, and confirms it is them with it', async ({
  page,
}) => {
  const authenticator = await addVirtualAuthenticator(page);
  const admin = await newAdmin();

  // Signed in with the password alone (STAFF_MFA optional in the demo), the Admin adds a passkey.
  await logIn(page, admin);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await page.getByRole('navigation', { name: 'Back-office' }).getByRole('link', { name: 'Account', exact: true }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Second Factor' })).toBeVisible();
  // A first second factor asks for the password: a session alone cannot enrol one.
  await page.getByLabel('Your password', { exact: true }).fill(admin.password);
  await page.getByLabel('Name of the new passkey').fill('Work laptop');
  await page.getByRole('button', { name: 'Add a passkey' }).click();

  // The first second factor brings the ten recovery codes, shown this once.
  const codes = page.getByRole('region', { name: 'Your recovery codes' });
  await expect(codes.getByRole('listitem')).toHaveCount(10);
  await page.screenshot({ path: 'e2e/screenshots/backoffice-desktop-second-factor.png', fullPage: true });
  await codes.getByRole('button', { name: 'I have saved them' }).click();
  await expect(codes).toHaveCount(0);
  await expect(page.getByLabel('Passkey name')).toHaveValue('Work laptop');
  const [credential] = await credentials(authenticator);
  expect(credential?.isResidentCredential).toBe(true);

  // It can be renamed.
  await page.getByLabel('Passkey name').fill('Office laptop');
  await page.getByRole('button', { name: 'Rename' }).click();
  await expect(page.getByText('Passkey renamed.')).toBeVisible();
  await logOut(page);

  // After the right password, the passkey is asked for before any back-office session exists.
  await logIn(page, admin);
  await expect(page).toHaveURL(/\/login\/second-factor$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Confirm your sign-in' })).toBeVisible();
  expect((await page.context().cookies()).map((c) => c.name)).not.toContain('bs_employee_at');
  await page.screenshot({ path: 'e2e/screenshots/storefront-desktop-second-factor-step.png' });
  await page.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await logOut(page);

  // Without the password: the passkey alone names the Admin.
  await page.goto('/login');
  await page.getByRole('button', { name: 'Staff: sign in with a passkey' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();

  // The sign-in counts as a recent second factor: the clients' details open without another prompt.
  await page.getByRole('navigation', { name: 'Back-office' }).getByRole('link', { name: 'Clients', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'All Clients' })).toBeVisible();
  await expect(page.getByRole('button', { name: "Confirm it's you" })).toHaveCount(0);
  await expect(page.getByRole('table').first()).toBeVisible();

  // Eleven minutes later (the session's proof moved back) they ask again, and the passkey answers the step-up too.
  await query(
    `UPDATE session_families SET second_factor_at = second_factor_at - interval '11 minutes' WHERE audience = 'employee' AND subject_id = $1`,
    [admin.id],
  );
  await page.reload();
  await page.getByRole('button', { name: "Confirm it's you" }).click();
  const dialog = page.getByRole('dialog', { name: "Confirm it's you" });
  await dialog.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('table').first()).toBeVisible();

  const events = await query<{ type: string }>(
    `SELECT type FROM security_events WHERE entity = 'Employee' AND entity_id = $1 ORDER BY id`,
    [String(admin.id)],
  );
  expect(events.map((e) => e.type)).toContain('second_factor_enrolled');
  const [used] = await query<{ last_used_at: Date | null; name: string }>(
    'SELECT last_used_at, name FROM employee_passkeys WHERE employee_id = $1',
    [admin.id],
  );
  expect(used).toMatchObject({ name: 'Office laptop' });
  expect(used?.last_used_at).not.toBeNull();
});

test('an Admin sets up an authenticator app from its QR code and secret, signs in with its code, and confirms it is them with a recovery code when the clients ask again', async ({
  page,
  context,
}) => {
  const admin = await newAdmin();
  await logIn(page, admin);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await page.getByRole('navigation', { name: 'Back-office' }).getByRole('link', { name: 'Account', exact: true }).click();
  await page.getByLabel('Your password', { exact: true }).fill(admin.password);
  await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const secret = (await page.getByTestId('totp-secret').textContent()) ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await page.getByLabel('Code from the app').fill(totpCode(secret));
  await page.getByRole('button', { name: 'Confirm' }).click();
  const codes = page.getByRole('region', { name: 'Your recovery codes' });
  await expect(codes.getByRole('listitem')).toHaveCount(10);
  const recoveryCode = (await codes.getByRole('listitem').first().textContent())?.trim() ?? '';
  await codes.getByRole('button', { name: 'I have saved them' }).click();
  await expect(page.getByText('An authenticator app is set up.')).toBeVisible();
  await logOut(page);

  // The password, then the app's code (the next one: the code that confirmed the app is spent).
  await logIn(page, admin);
  await expect(page.getByRole('heading', { level: 1, name: 'Confirm your sign-in' })).toBeVisible();
  await page.getByLabel('Code from your authenticator app, or a recovery code').fill(totpCode(secret, Date.now() + 30_000));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();

  // Eleven minutes later (the session's proof moved back), the clients' details ask for the second factor again.
  await query(
    `UPDATE session_families SET second_factor_at = second_factor_at - interval '11 minutes' WHERE audience = 'employee' AND subject_id = $1`,
    [admin.id],
  );
  /** The generation of the back-office session's tokens the browser holds (its access token's `gen` claim). */
  const tokensGeneration = async () => {
    const token = (await context.cookies()).find((cookie) => cookie.name.endsWith('bs_employee_at'))?.value ?? '';
    return (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString() || '{}') as { gen?: number }).gen;
  };
  const generationBefore = await tokensGeneration();
  await page.getByRole('navigation', { name: 'Back-office' }).getByRole('link', { name: 'Clients', exact: true }).click();
  await page.getByRole('button', { name: "Confirm it's you" }).click();
  const dialog = page.getByRole('dialog', { name: "Confirm it's you" });
  await dialog.getByLabel('Code from your authenticator app, or a recovery code').fill(recoveryCode);
  await page.screenshot({ path: 'e2e/screenshots/backoffice-desktop-step-up.png' });
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('table').first()).toBeVisible();
  // The step-up renewed the session's tokens (a re-authentication), and the screen went on with the new ones.
  expect(generationBefore).toEqual(expect.any(Number));
  expect(await tokensGeneration()).toBe(generationBefore! + 1);
  const [left] = await query<{ n: string }>('SELECT count(*) n FROM employee_recovery_codes WHERE employee_id = $1 AND used_at IS NULL', [
    admin.id,
  ]);
  expect(Number(left?.n)).toBe(9);
});

// A forgotten password, against the real identity emulator: the provider e-mails the reset code,
// the code sets a new shop password once, every session ends, and nobody learns who has an account.
import { randomUUID } from 'node:crypto';
import { FORM_MESSAGES } from '@bookshop/rules';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { cookieHeader, createProviderAccount, createTestApp, DEMO, type TestApp } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

const OLD_PASSWORD = 'Secret123!';
const NEW_PASSWORD = 'Lantern-Harbor-92';
const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload, headers });

/** A client signed up through the provider, and their session's cookies. */
async function newClient() {
  const email = `reset-${randomUUID()}@example.com`;
  const { idToken } = await createProviderAccount(email, OLD_PASSWORD, { verify: true });
  const res = await post(
    '/api/public/sign-up/',
    { firstName: 'Rae', lastName: 'Set', phoneNumber: '0661234567', account_informations: { account: email, password: OLD_PASSWORD } },
    { authorization: `Bearer ${idToken}` },
  );
  expect(res.statusCode, res.body).toBe(200);
  return { email, cookie: cookieHeader(res) };
}

/** The codes of the password-reset e-mails the emulator "sent" to this address. */
async function resetCodes(email: string) {
  const res = await fetch(`http://${inject('emulatorHost')}/emulator/v1/projects/demo-bookshop/oobCodes`);
  const { oobCodes } = (await res.json()) as { oobCodes: { email: string; requestType: string; oobCode: string }[] };
  return oobCodes.filter((c) => c.email === email && c.requestType === 'PASSWORD_RESET').map((c) => c.oobCode);
}

const requestReset = (account: string) => post('/api/public/password-reset/request', { account });
const reset = (oobCode: string, newPassword?: string) => post('/api/public/password-reset/', { oobCode, newPassword });
const login = (account: string, password: string) => post('/api/public/authentication/login', { account, password });

describe('forgot password', () => {
  it('e-mails a client the code that sets a new password, once; the old password and every session stop working', async () => {
    const { email, cookie } = await newClient();
    const asked = await requestReset(` ${email.toUpperCase()} `);
    expect(asked.statusCode).toBe(200);
    expect(asked.json().data).toBe(FORM_MESSAGES.resetRequested);
    const [code] = await resetCodes(email);
    expect(code).toBeDefined();

    // A password the rules refuse is refused in their words, and does not spend the code.
    const weak = await reset(code!, 'short');
    expect(weak.statusCode).toBe(400);
    expect(weak.json().error.message).toMatch(/at least 8 characters/);
    expect((await reset(code!)).json().error.message).toBe(FORM_MESSAGES.newPasswordRequired);

    const done = await reset(code!, NEW_PASSWORD);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().data).toBe(FORM_MESSAGES.passwordReset);

    expect((await login(email, OLD_PASSWORD)).statusCode).toBe(401);
    expect((await login(email, NEW_PASSWORD)).statusCode).toBe(200);
    // The session that was open before the reset has ended, refresh token and all.
    expect((await t.app.inject({ method: 'GET', url: '/api/client/manage/', headers: { cookie } })).statusCode).toBe(401);
    const refresh = await t.app.inject({ method: 'POST', url: '/api/public/authentication/refresh-tokens/Client', headers: { cookie } });
    expect(refresh.statusCode).toBe(401);

    // A code works once.
    const again = await reset(code!, 'Another-Lantern-93');
    expect(again.statusCode).toBe(400);
    expect(again.json().error.code).toBe('RESET_CODE_REFUSED');

    const [event] = await t.db.query<{ actor: string }>(
      "SELECT actor FROM security_events WHERE type = 'password_reset' ORDER BY id DESC LIMIT 1",
    );
    expect(event!.actor).toMatch(/^client:\d+$/);
  });

  it('answers the same to an e-mail no client uses, or an employee, and e-mails nobody', async () => {
    for (const account of [`nobody-${randomUUID()}@example.com`, DEMO.admin.account]) {
      const res = await requestReset(account);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toBe(FORM_MESSAGES.resetRequested);
      expect(await resetCodes(account)).toEqual([]);
    }
  });

  it('refuses a request without a valid e-mail in the form’s words', async () => {
    expect((await requestReset('')).json().error.message).toBe(FORM_MESSAGES.emailRequired);
    expect((await requestReset('not-an-email')).json().error.message).toBe(FORM_MESSAGES.emailInvalid);
  });

  it('refuses a made-up code, and changes no password', async () => {
    const res = await reset('made-up-code', NEW_PASSWORD);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe('This reset link is invalid, used or expired. Please ask for a new one.');
  });
});

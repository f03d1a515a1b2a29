// A forgotten password, against the real identity emulator: the provider e-mails the reset code,
// the code sets a new shop password once, every session ends, and nobody learns who has an account.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FORM_MESSAGES } from '@bookshop/rules';
import bcrypt from 'bcrypt';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { CROWDED_AFTER } from '../src/modules/security/security-events.ts';
import { RESET_EMAILS_PER_CLIENT_PER_DAY } from '../src/routes/public/password-reset.ts';
import { cookieHeader, createProviderAccount, createTestApp, type TestApp, untilStatementsWaitOnLocks } from './helpers.ts';

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

/** The reset codes once the background send has had time to reach the emulator (it answers before sending). */
async function resetCodesSoon(email: string, expected: number) {
  for (let tries = 0; tries < 50; tries++) {
    const codes = await resetCodes(email);
    if (codes.length >= expected) return codes;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return resetCodes(email);
}

/** The codes of the password-reset e-mails the emulator "sent" to this address. */
async function resetCodes(email: string) {
  const res = await fetch(`http://${inject('emulatorHost')}/emulator/v1/projects/demo-bookshop/oobCodes`);
  const { oobCodes } = (await res.json()) as { oobCodes: { email: string; requestType: string; oobCode: string }[] };
  return oobCodes.filter((c) => c.email === email && c.requestType === 'PASSWORD_RESET').map((c) => c.oobCode);
}

/** Each request from its own address: the per-address limit (10 an hour) is not what these tests are about. */
let addresses = 0;
const requestReset = (account: string) => {
  addresses += 1;
  return t.app.inject({
    method: 'POST',
    url: '/api/public/password-reset/request',
    payload: { account },
    remoteAddress: `10.77.${addresses >> 8}.${addresses & 255}`,
  });
};
const reset = (oobCode: string, newPassword?: string) => post('/api/public/password-reset/', { oobCode, newPassword });
const login = (account: string, password: string) => post('/api/public/authentication/login', { account, password });

describe('forgot password', () => {
  it('e-mails a client the code that sets a new password, once; the old password and every session stop working', async () => {
    const { email, cookie } = await newClient();
    const asked = await requestReset(` ${email.toUpperCase()} `);
    expect(asked.statusCode).toBe(200);
    expect(asked.json().data).toBe(FORM_MESSAGES.resetRequested);
    const [code] = await resetCodesSoon(email, 1);
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

  it('answers the same to an e-mail no client uses, or an employee, and e-mails nobody, though the provider knows them', async () => {
    const stranger = `nobody-${randomUUID()}@example.com`;
    const employee = `staff-${randomUUID()}@example.com`;
    await t.newEmployee({ email: employee });
    for (const account of [stranger, employee]) {
      await createProviderAccount(account, OLD_PASSWORD, { verify: true });
      const res = await requestReset(account);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toBe(FORM_MESSAGES.resetRequested);
    }
    // A client asking after them: once that e-mail is out, theirs would have been too.
    const { email } = await newClient();
    await requestReset(email);
    expect(await resetCodesSoon(email, 1)).toHaveLength(1);
    expect(await resetCodes(stranger)).toEqual([]);
    expect(await resetCodes(employee)).toEqual([]);
  });

  it('refuses an employee who comes with a provider reset code: employees ask an Admin', async () => {
    const employee = `staff-${randomUUID()}@example.com`;
    await t.newEmployee({ email: employee });
    await createProviderAccount(employee, OLD_PASSWORD, { verify: false });
    await fetch(`http://${inject('emulatorHost')}/identitytoolkit.googleapis.com/v1/accounts:sendOobCode?key=fake-api-key`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ requestType: 'PASSWORD_RESET', email: employee }),
    });
    const [code] = await resetCodes(employee);
    const res = await reset(code!, NEW_PASSWORD);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'NOT_A_CLIENT', message: FORM_MESSAGES.resetNotForEmployees });
  });

  it('sends one client at most three reset e-mails an hour, whoever asks', async () => {
    const { email } = await newClient();
    for (let sent = 1; sent <= 3; sent++) {
      expect((await requestReset(email)).statusCode).toBe(200);
      expect(await resetCodesSoon(email, sent)).toHaveLength(sent);
    }
    for (let more = 0; more < 2; more++) expect((await requestReset(email)).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await resetCodes(email)).toHaveLength(3);
  });

  it(`and at most ${RESET_EMAILS_PER_CLIENT_PER_DAY} a day: an hour's three, every hour, would fill an inbox and the provider's quota`, async () => {
    const { email } = await newClient();
    const [client] = await t.db.query<{ id: number }>('SELECT id FROM clients WHERE account = $1', [email]);
    const nextHour = () =>
      t.db.query("UPDATE throttle_counters SET window_ends_at = now() - interval '1 second' WHERE key = $1", [
        `reset-mail:client:${client!.id}`,
      ]);
    for (let sent = 1; sent <= 3; sent++) {
      expect((await requestReset(email)).statusCode).toBe(200);
      expect(await resetCodesSoon(email, sent)).toHaveLength(sent);
    }
    await nextHour();
    for (let sent = 4; sent <= RESET_EMAILS_PER_CLIENT_PER_DAY; sent++) {
      expect((await requestReset(email)).statusCode).toBe(200);
      expect(await resetCodesSoon(email, sent)).toHaveLength(sent);
    }
    await nextHour();
    // The answer reads the same, and nothing more is sent.
    expect((await requestReset(email)).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await resetCodes(email)).toHaveLength(RESET_EMAILS_PER_CLIENT_PER_DAY);
  });

  it("requests from 250 addresses for one client's e-mail are recorded in at most a crowded window's rows, with every request counted", async () => {
    const { email } = await newClient();
    const rows = () =>
      t.db.query<{ address: string; count: number }>(
        "SELECT address, count FROM security_events WHERE type = 'password_reset_requested' AND actor = (SELECT 'client:' || id FROM clients WHERE account = $1) OR (type = 'password_reset_requested' AND address = '*')",
        [email],
      );
    const before = (await rows()).reduce((sum, row) => sum + row.count, 0);
    for (let i = 0; i < 250; i++) expect((await requestReset(email)).statusCode).toBe(200);
    // Recorded in the background: wait until all 250 are counted.
    let recorded: { address: string; count: number }[] = [];
    for (let tries = 0; tries < 100; tries++) {
      recorded = await rows();
      if (recorded.reduce((sum, row) => sum + row.count, 0) - before >= 250) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(recorded.reduce((sum, row) => sum + row.count, 0) - before).toBe(250);
    // One row an address up to the crowded mark, then one shared row (twice that if the requests crossed a window).
    expect(recorded.length).toBeLessThanOrEqual(2 * (CROWDED_AFTER + 1));
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

describe('a reset and what stood before it', () => {
  it("ends the account's lockout: the person who reset it signs in at once, from the address that was locked out", async () => {
    const { email } = await newClient();
    const lockedAddress = '10.78.0.1';
    const attempt = (password: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/public/authentication/login',
        payload: { account: email, password },
        remoteAddress: lockedAddress,
      });
    for (let i = 0; i < 5; i++) expect((await attempt('wrong-password')).statusCode).toBe(401);
    expect((await attempt(OLD_PASSWORD)).statusCode).toBe(429);

    expect((await requestReset(email)).statusCode).toBe(200);
    const [code] = await resetCodesSoon(email, 1);
    expect((await reset(code!, NEW_PASSWORD)).statusCode).toBe(200);
    expect((await attempt(NEW_PASSWORD)).statusCode).toBe(200);
    // The reset's security notice was written with it.
    const notices = await t.db.query(
      "SELECT 1 FROM mail_outbox m JOIN clients c ON c.id = m.client_id WHERE m.kind = 'password_changed' AND c.account = $1",
      [email],
    );
    expect(notices).toHaveLength(1);
  });

  it('is all or nothing: when the identity provider refuses to spend the code, the shop keeps the old password and every session', async () => {
    const { email, cookie } = await newClient();
    const [client] = await t.db.query<{ id: number; password_hash: string }>('SELECT id, password_hash FROM clients WHERE account = $1', [
      email,
    ]);
    await expect(
      t.app.accounts.resetClientPassword(client!.id, NEW_PASSWORD, async () => {
        throw new Error('the provider is down');
      }),
    ).rejects.toThrow('the provider is down');
    const [after] = await t.db.query<{ password_hash: string }>('SELECT password_hash FROM clients WHERE id = $1', [client!.id]);
    expect(after!.password_hash).toBe(client!.password_hash);
    expect((await t.app.inject({ method: 'GET', url: '/api/client/manage', headers: { cookie } })).statusCode).toBe(200);
    expect((await login(email, OLD_PASSWORD)).statusCode).toBe(200);
  });

  /**
   * A sign-in with the client's old password while a reset's transaction (new password, every session
   * ended) is held open at the provider's step: its answer, and the client's live sessions after.
   */
  async function signInDuringReset(email: string) {
    const [client] = await t.db.query<{ id: number }>('SELECT id FROM clients WHERE account = $1', [email]);
    let providerAnswers!: () => void;
    let atProvider!: () => void;
    const reachedProvider = new Promise<void>((resolve) => {
      atProvider = resolve;
    });
    const resetting = t.app.accounts.resetClientPassword(client!.id, NEW_PASSWORD, () => {
      atProvider();
      return new Promise<void>((resolve) => {
        providerAnswers = resolve;
      });
    });
    await reachedProvider;
    // Its password checks out against the hash still committed; what it writes next waits for the reset.
    const signIn = login(email, OLD_PASSWORD);
    await Promise.race([signIn, untilStatementsWaitOnLocks(t.db, 1)]);
    providerAnswers();
    await resetting;
    const answer = await signIn;
    const live = await t.db.query("SELECT 1 FROM session_families WHERE audience = 'client' AND subject_id = $1 AND revoked_at IS NULL", [
      client!.id,
    ]);
    return { answer, liveSessions: live.length };
  }

  it('a sign-in whose old password was checked while a reset was under way gets no session: the reset ends it too', async () => {
    const { email } = await newClient();
    const { answer, liveSessions } = await signInDuringReset(email);
    expect(answer.statusCode, answer.body).toBe(401);
    expect(answer.json().error.message).toBe(FORM_MESSAGES.invalidLogin);
    expect(liveSessions).toBe(0);
  });

  it('nor does one whose old hash was due for a stronger one: the reset keeps its new password', async () => {
    const email = `reset-${randomUUID()}@example.com`;
    // A hash of the old format, which the first right sign-in replaces.
    await t.db.query(
      "INSERT INTO clients (first_name, last_name, phone_number, account, password_hash) VALUES ('Old', 'Hash', '0661234567', $1, $2)",
      [email, await bcrypt.hash(OLD_PASSWORD, 10)],
    );
    const { answer, liveSessions } = await signInDuringReset(email);
    expect(answer.statusCode, answer.body).toBe(401);
    expect(liveSessions).toBe(0);
    expect((await login(email, OLD_PASSWORD)).statusCode).toBe(401);
    expect((await login(email, NEW_PASSWORD)).statusCode).toBe(200);
  });
});

describe('a slow identity provider', () => {
  it('a reset the provider takes longer than the usual request budget to finish is answered when it is done, not told to try again', async () => {
    // Between the app and the emulator: the call that spends the code (it carries the new password)
    // answers only after a wait longer than the app's request budget.
    const emulator = `http://${inject('emulatorHost')}`;
    const slowSpendMs = 1500;
    const proxy = createServer(async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks).toString();
      if (request.url?.includes('accounts:resetPassword') && body.includes('newPassword')) {
        await new Promise((resolve) => setTimeout(resolve, slowSpendMs));
      }
      const answer = await fetch(`${emulator}${request.url}`, {
        method: request.method,
        headers: { 'content-type': request.headers['content-type'] ?? 'application/json' },
        body: request.method === 'GET' ? undefined : body,
      });
      response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
      response.end(Buffer.from(await answer.arrayBuffer()));
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const slow = await createTestApp({
      env: {
        FIREBASE_AUTH_EMULATOR_HOST: `127.0.0.1:${(proxy.address() as AddressInfo).port}`,
        REQUEST_TIMEOUT_MS: '1000',
        DATABASE_CONNECT_TIMEOUT_MS: '500',
      },
    });
    try {
      const email = `slow-reset-${randomUUID()}@example.com`;
      const { idToken } = await createProviderAccount(email, OLD_PASSWORD, { verify: true });
      const signedUp = await slow.app.inject({
        method: 'POST',
        url: '/api/public/sign-up/',
        headers: { authorization: `Bearer ${idToken}` },
        payload: {
          firstName: 'Sol',
          lastName: 'Wait',
          phoneNumber: '0661234567',
          account_informations: { account: email, password: OLD_PASSWORD },
        },
      });
      expect(signedUp.statusCode, signedUp.body).toBe(200);
      expect(
        (await slow.app.inject({ method: 'POST', url: '/api/public/password-reset/request', payload: { account: email } })).statusCode,
      ).toBe(200);
      const [code] = await resetCodesSoon(email, 1);
      const started = Date.now();
      const done = await slow.app.inject({
        method: 'POST',
        url: '/api/public/password-reset/',
        payload: { oobCode: code, newPassword: NEW_PASSWORD },
      });
      expect(done.statusCode, done.body).toBe(200);
      expect(Date.now() - started).toBeGreaterThanOrEqual(slowSpendMs);
      const login = (password: string) =>
        slow.app.inject({ method: 'POST', url: '/api/public/authentication/login', payload: { account: email, password } });
      expect((await login(NEW_PASSWORD)).statusCode).toBe(200);
      expect((await login(OLD_PASSWORD)).statusCode).toBe(401);
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
});

// Staff second factor (issue 31): TOTP with a known secret and a fixed clock, recovery codes, the
// sign-in's second step, the STAFF_MFA policy, the step-up of sensitive actions, an Admin's reset,
// and security events without secrets. Passkeys run in a real Chromium (e2e/second-factor.spec.ts);
// here only a registration, with a passkey made in the test (software-authenticator.ts).
import pg from 'pg';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { recoveryCodeHash, secretBox, TOTP_PERIOD_SECONDS, totpCode } from '../src/modules/second-factor/codes.ts';
import { SIGN_INS_PER_ACCOUNT_HOUR } from '../src/modules/sessions/login-throttle.ts';
import {
  cookieHeader,
  createTestApp,
  DEMO,
  type TestApp,
  untilStatementsWaitOnLocks,
  whileSessionsCannotBeRenewed,
  whileSessionsCannotEnd,
} from './helpers.ts';
import { registerSoftwarePasskey, softwarePasskey } from './software-authenticator.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterEach(() => {
  vi.useRealTimers();
});

const LOGIN = '/api/public/authentication/login';
const SECOND_STEP = '/api/public/authentication/second-factor';
const OWN = '/api/employee/second-factor';
/** The origin of a request injected with no Host of its own, which the relying party is named after. */
const INJECTED_ORIGIN = 'http://localhost:80';

/** A clock fixed at `at` (Date only: timers, sockets and the database keep real time). */
const fixClock = (at: number) => {
  vi.useFakeTimers({ now: at, toFake: ['Date'] });
};

/** What t.newEmployee stored, as the Account screen sends it. */
const informationOf = (who: { account: string }) => ({
  firstName: 'Test',
  lastName: 'Employee',
  gender: 'Female',
  birthDate: '1990-01-01',
  email: who.account,
  phoneNumber: '0555000000',
  address: '1 Main Street',
});

/** Runs `meanwhile` while ending this employee's sessions fails (helpers.ts). */
const whileEmployeeSessionsCannotEnd = (employeeId: number, meanwhile: () => Promise<void>) =>
  whileSessionsCannotEnd(t.db, { audience: 'employee', id: employeeId }, meanwhile);

/** A stored passkey of the employee's (no key behind it): enough for the options that name their passkeys. */
const storePasskey = (employeeId: number, credentialId: string) =>
  t.db.query(`INSERT INTO employee_passkeys (employee_id, credential_id, public_key, name) VALUES ($1, $2, '\\x00', 'Laptop')`, [
    employeeId,
    credentialId,
  ]);

/** How many times events happened: a row may stand for several repeats (its `count`, where the table keeps one). */
const occurrences = (rows: { row: string }[]) =>
  rows.reduce((sum, { row }) => sum + ((JSON.parse(row) as { count?: number }).count ?? 1), 0);

/**
 * A proved second factor renews the session's cookies (its tokens from before are refused): the cookie
 * header each one sent was renewed to, so that a test holding a session's header sends what a browser's
 * jar would hold now (`latest`).
 */
const renewedCookies = new Map<string, string>();
const latest = (cookie: string) => {
  let now = cookie;
  while (renewedCookies.has(now)) now = renewedCookies.get(now)!;
  return now;
};
/** Keeps what `res` renewed of the cookies `sent`. */
const keepRenewal = (sent: string, res: { cookies: { name: string; value: string }[] }) => {
  if (res.cookies.some((c) => c.name.endsWith('bs_employee_at') && c.value)) renewedCookies.set(sent, cookieHeader(res, sent));
};

const call = async (app: TestApp, cookie: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
  const sent = latest(cookie);
  const res = await app.app.inject({ method, url, headers: { cookie: sent }, payload });
  keepRenewal(sent, res);
  return res;
};

/** Signs in with the password only (no factor): the session cookie. */
const passwordLogin = (app: TestApp, who: { account: string; password: string }) => app.login(who);

/** The demo Admin, who has no second factor, signs in with the password alone and reads every client. */
async function expectDemoAdminInByPassword(app: TestApp) {
  const admin = await passwordLogin(app, DEMO.admin);
  expect((await call(app, admin, 'GET', '/api/employee/statistics/clients/')).statusCode).toBe(200);
}

/** Sets up an authenticator app for the signed-in employee: its secret and the recovery codes. */
async function enrolTotp(app: TestApp, cookie: string) {
  // Every employee of these tests has the demo Admin's password: a first factor needs it.
  const started = await call(app, cookie, 'POST', `${OWN}/totp`, { currentPassword: DEMO.admin.password });
  expect(started.statusCode).toBe(200);
  const { secret, otpauthUrl } = started.json().data as { secret: string; otpauthUrl: string };
  expect(otpauthUrl).toMatch(/^otpauth:\/\/totp\/Bookshop:.*secret=/);
  const confirmed = await call(app, cookie, 'POST', `${OWN}/totp/confirm`, { code: totpCode(secret) });
  expect(confirmed.statusCode).toBe(200);
  return { secret, recoveryCodes: confirmed.json().data.recoveryCodes as string[] };
}

/** The password step: the answer and the sign-in step's cookie (no session yet). */
async function passwordStep(app: TestApp, who: { account: string; password: string }) {
  const res = await app.app.inject({ method: 'POST', url: LOGIN, payload: who });
  return { res, cookie: cookieHeader(res) };
}

const secondStep = (app: TestApp, cookie: string, code: string) =>
  app.app.inject({ method: 'POST', url: SECOND_STEP, headers: { cookie }, payload: { code } });

describe("the spec's login in the demo (STAFF_MFA optional)", () => {
  it("signs in every demo account with the spec's body alone", async () => {
    for (const [who, type] of [
      [DEMO.admin, 'Admin'],
      [DEMO.seller, 'Seller'],
      [DEMO.client, 'Client'],
    ] as const) {
      const res = await t.app.inject({ method: 'POST', url: LOGIN, payload: { account: who.account, password: who.password } });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: type });
    }
    await expectDemoAdminInByPassword(t);
  });
});

describe('TOTP', () => {
  it('is set up with a secret, a QR address and a first code, and then asked for before any session exists', async () => {
    const who = await t.newEmployee({ role: 'Seller' });
    const cookie = await passwordLogin(t, who);
    const wrong = await call(t, cookie, 'POST', `${OWN}/totp`, { currentPassword: who.password });
    const wrongCode = totpCode(wrong.json().data.secret, Date.now() - 10 * TOTP_PERIOD_SECONDS * 1000);
    expect((await call(t, cookie, 'POST', `${OWN}/totp/confirm`, { code: wrongCode })).statusCode).toBe(400);
    const { recoveryCodes } = await enrolTotp(t, cookie);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);

    const { res, cookie: step } = await passwordStep(t, who);
    expect(res.json()).toEqual({ data: 'SecondFactor' });
    // The step's token (no session), and the browser marked as one that knew the password.
    expect(res.cookies.map((c) => c.name).sort()).toEqual(['bs_device', 'bs_second_factor']);
    // The sign-in step's token is no session: nothing of the back-office answers to it.
    expect((await call(t, step, 'GET', '/api/employee/employee/')).statusCode).toBe(401);
    const status = (await call(t, cookie, 'GET', `${OWN}/`)).json().data;
    expect(status).toMatchObject({ totp: true, passkeys: [], recoveryCodesLeft: 10, required: false });
  });

  it('accepts a code one step either side of a fixed clock, refuses older ones, and never the same code twice', async () => {
    const who = await t.newEmployee({ role: 'Admin' });
    const { secret } = await enrolTotp(t, await passwordLogin(t, who));
    const now = Math.floor(Date.now() / 30_000) * 30_000 + 60_000 + 10_000; // 10 s into a step a minute ahead
    fixClock(now);
    const step = 30_000;

    // Two steps back is outside the window.
    let attempt = await passwordStep(t, who);
    expect((await secondStep(t, attempt.cookie, totpCode(secret, now - 2 * step))).statusCode).toBe(400);
    // One step back is inside it, and signs in.
    const signedIn = await secondStep(t, attempt.cookie, totpCode(secret, now - step));
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json()).toEqual({ data: 'Admin' });
    const session = cookieHeader(signedIn);
    expect((await call(t, session, 'GET', '/api/employee/employee/')).statusCode).toBe(200);
    // The step's token was spent with it.
    expect((await secondStep(t, attempt.cookie, totpCode(secret, now))).statusCode).toBe(401);

    // The same code again, in a new sign-in within its window: refused (replay), as is any earlier one.
    attempt = await passwordStep(t, who);
    expect((await secondStep(t, attempt.cookie, totpCode(secret, now - step))).statusCode).toBe(400);
    // The current code and the next step's work, once each.
    expect((await secondStep(t, attempt.cookie, totpCode(secret, now))).statusCode).toBe(200);
    attempt = await passwordStep(t, who);
    expect((await secondStep(t, attempt.cookie, totpCode(secret, now))).statusCode).toBe(400);
    expect((await secondStep(t, attempt.cookie, totpCode(secret, now + step))).statusCode).toBe(200);
  });

  it('locks a factor for every address after ten wrong codes: a new address per guess gets no more of them', async () => {
    const who = await t.newEmployee({ role: 'Seller' });
    const { secret } = await enrolTotp(t, await passwordLogin(t, who));
    const { cookie } = await passwordStep(t, who);
    const fromAddress = (i: number, code: string) =>
      t.app.inject({ method: 'POST', url: SECOND_STEP, headers: { cookie }, payload: { code }, remoteAddress: `2001:db8:${i}::1` });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await fromAddress(i, '000000')).statusCode);
    expect(statuses).toEqual(Array(10).fill(400));
    // Even a right code (the next step's: the current one was spent on enrolment), from an address
    // never seen, waits for the window to end.
    const locked = await fromAddress(99, totpCode(secret, Date.now() + TOTP_PERIOD_SECONDS * 1000));
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(60);
    const events = await t.db.query<{ type: string }>(`SELECT type FROM security_events WHERE actor = $1`, [
      `second-factor:${who.account}`,
    ]);
    expect(events.map((e) => e.type)).toEqual(['login_locked']);
  });

  it('a burst of wrong codes at once from as many addresses gets no more than ten checked', async () => {
    const who = await t.newEmployee({ role: 'Seller' });
    await enrolTotp(t, await passwordLogin(t, who));
    const { cookie } = await passwordStep(t, who);
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: SECOND_STEP,
          headers: { cookie },
          payload: { code: '000000' },
          remoteAddress: `2001:db8:1:${i}::1`,
        }),
      ),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 400).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s !== 400).every((s) => s === 429)).toBe(true);
    const locked = await t.db.query(`SELECT 1 FROM security_events WHERE type = 'login_locked' AND actor = $1`, [
      `second-factor:${who.account}`,
    ]);
    expect(locked).toHaveLength(1);
  });

  it("no stranger can lock an employee's factor by signing in under a name that looks like its counter", async () => {
    const who = await t.newEmployee({ role: 'Seller' });
    const { secret } = await enrolTotp(t, await passwordLogin(t, who));
    for (let i = 0; i < 12; i++) {
      await t.app.inject({
        method: 'POST',
        url: LOGIN,
        payload: { account: `second-factor:${who.account}`, password: 'wrong' },
        remoteAddress: `2001:db8:2:${i}::1`,
      });
    }
    const { cookie } = await passwordStep(t, who);
    const signedIn = await secondStep(t, cookie, totpCode(secret, Date.now() + TOTP_PERIOD_SECONDS * 1000));
    expect(signedIn.statusCode).toBe(200);
  });

  it('throttles wrong codes like wrong passwords, and records them without the code', async () => {
    const who = await t.newEmployee({ role: 'Seller' });
    const { secret } = await enrolTotp(t, await passwordLogin(t, who));
    const { cookie } = await passwordStep(t, who);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await secondStep(t, cookie, '000000')).statusCode);
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
    // Even the right code waits for the lock to pass.
    const locked = await secondStep(t, cookie, totpCode(secret));
    expect(locked.statusCode).toBe(429);
    expect(locked.headers['retry-after']).toBeDefined();

    const events = await t.db.query<{ type: string; row: string }>(
      `SELECT type, row_to_json(e)::text AS row FROM security_events e WHERE actor IN ($1, $2) OR entity_id = $3`,
      [who.account, `second-factor:${who.account}`, String(who.id)],
    );
    expect(occurrences(events.filter((e) => e.type === 'second_factor_failed'))).toBe(5);
    expect(events.map((e) => e.type)).toContain('login_locked');
    expect(events.map((e) => e.type)).toContain('second_factor_enrolled');
    for (const e of events) {
      expect(e.row).not.toContain(secret);
      expect(e.row).not.toContain('000000');
    }
  });
});

describe('a sign-in step with a frontend on another site (CORS_ORIGINS)', () => {
  it("is the frontend's own: another site's page cannot finish it with the step's cookie", async () => {
    const spa = 'https://spa.example';
    const cross = await createTestApp({ env: { CORS_ORIGINS: spa } });
    const who = await cross.newEmployee({ role: 'Seller' });
    const { secret } = await enrolTotp(cross, await passwordLogin(cross, who));
    const now = Math.floor(Date.now() / 30_000) * 30_000 + 60_000 + 10_000;
    fixClock(now);
    const { cookie } = await passwordStep(cross, who);
    const answer = (mode: string) =>
      cross.app.inject({
        method: 'POST',
        url: SECOND_STEP,
        headers: { cookie, origin: spa, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': mode },
        payload: { code: totpCode(secret, now) },
      });
    // A form of the frontend's page posted as a navigation: the SameSite=None cookie goes, and is not its.
    const navigated = await answer('navigate');
    expect(navigated.statusCode).toBe(401);
    expect(navigated.cookies.filter((c) => c.value)).toEqual([]);
    const fetched = await answer('cors');
    expect([fetched.statusCode, fetched.json()]).toEqual([200, { data: 'Seller' }]);
  });
});

describe('a password changed between the two steps', () => {
  const liveSessions = async (id: number) =>
    (await t.db.query("SELECT 1 FROM session_families WHERE audience = 'employee' AND subject_id = $1 AND revoked_at IS NULL", [id]))
      .length;

  it('ends the sign-in: a right code then starts no session and is not spent; the new password with a factor signs in', async () => {
    const who = await t.newEmployee({ role: 'Seller' });
    const session = await passwordLogin(t, who);
    const { recoveryCodes } = await enrolTotp(t, session);
    // Someone who knows the old password is at the code step when the employee changes it.
    const attempt = await passwordStep(t, who);
    expect(attempt.res.json()).toEqual({ data: 'SecondFactor' });
    const newPassword = 'Quiet-Orchard-71';
    const changed = await call(t, session, 'PUT', '/api/employee/password/', { oldPassword: who.password, newPassword });
    expect(changed.statusCode, changed.body).toBe(200);

    const late = await secondStep(t, attempt.cookie, recoveryCodes[0]!);
    expect(late.statusCode, late.body).toBe(401);
    expect(late.json().error.code).toBe('SECOND_FACTOR_EXPIRED');
    expect(await liveSessions(who.id)).toBe(1); // the session that changed it
    const again = await passwordStep(t, { account: who.account, password: newPassword });
    expect((await secondStep(t, again.cookie, recoveryCodes[0]!)).statusCode).toBe(200);
  });

  it('a step spent by its answer is not made live again by a request for its options that read it first', async () => {
    const who = await t.newEmployee({ role: 'Seller' });
    const { recoveryCodes } = await enrolTotp(t, await passwordLogin(t, who));
    // With a passkey, the options write the step's passkey challenge.
    await storePasskey(who.id, `cred-spent-${who.id}`);
    const attempt = await passwordStep(t, who);
    const token = attempt.cookie.match(/bs_second_factor=([^;]+)/)![1]!;
    expect((await secondStep(t, attempt.cookie, recoveryCodes[0]!)).statusCode).toBe(200);
    // The options' write, landing after the answer spent the step (as when both were sent at once).
    const rp = { origin: 'http://localhost', rpID: 'localhost' };
    await expect(t.app.secondFactor.proofOptions(who.id, rp, { signInToken: token })).rejects.toMatchObject({ statusCode: 401 });
    // No row for the step: one written now (with the end the options read before) would be a live step with no password.
    const rows = await t.db.query("SELECT 1 FROM sign_in_challenges WHERE token_hash = encode(sha256(convert_to($1, 'UTF8')), 'hex')", [
      token,
    ]);
    expect(rows).toHaveLength(0);
    const again = await secondStep(t, attempt.cookie, recoveryCodes[1]!);
    expect(again.statusCode, again.body).toBe(401);
  });

  it('a step opened before the step kept its password is over: the employee signs in again', async () => {
    const who = await t.newEmployee({ role: 'Seller' });
    const { recoveryCodes } = await enrolTotp(t, await passwordLogin(t, who));
    const attempt = await passwordStep(t, who);
    await t.db.query("UPDATE sign_in_challenges SET password_fingerprint = NULL WHERE employee_id = $1 AND purpose = 'second_factor'", [
      who.id,
    ]);
    const old = await secondStep(t, attempt.cookie, recoveryCodes[0]!);
    expect([old.statusCode, old.json().error.code]).toEqual([401, 'SECOND_FACTOR_EXPIRED']);
    expect((await secondStep(t, (await passwordStep(t, who)).cookie, recoveryCodes[0]!)).statusCode).toBe(200);
  });

  it('while the code is being checked: the step waits for the change, then starts no session', async () => {
    const who = await t.newEmployee({ role: 'Seller' });
    const { secret } = await enrolTotp(t, await passwordLogin(t, who));
    const attempt = await passwordStep(t, who);
    const sessionsBefore = await liveSessions(who.id);
    // A change of the password held open (the employee's own, in another tab, say).
    const holder = new pg.Client({ connectionString: t.db.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query("UPDATE employees SET password_hash = 'bcrypt-sha256:another' WHERE id = $1", [who.id]);
      const step = secondStep(t, attempt.cookie, totpCode(secret, Date.now() + TOTP_PERIOD_SECONDS * 1000));
      await untilStatementsWaitOnLocks(t.db, 1);
      await holder.query('COMMIT');
      const answer = await step;
      expect(answer.statusCode, answer.body).toBe(401);
      expect(answer.json().error.code).toBe('SECOND_FACTOR_EXPIRED');
    } finally {
      await holder.end();
    }
    expect(await liveSessions(who.id)).toBe(sessionsBefore);
  });
});

describe('recovery codes', () => {
  it('each signs in once, in any case and spacing; they are stored hashed', async () => {
    const who = await t.newEmployee({ role: 'Seller' });
    const { recoveryCodes } = await enrolTotp(t, await passwordLogin(t, who));
    const [first, second] = recoveryCodes as [string, string];
    const stored = await t.db.query<{ code_hash: string }>('SELECT code_hash FROM employee_recovery_codes WHERE employee_id = $1', [
      who.id,
    ]);
    expect(stored).toHaveLength(10);
    expect(stored.map((r) => r.code_hash)).not.toContain(first);

    let attempt = await passwordStep(t, who);
    expect((await secondStep(t, attempt.cookie, first.toUpperCase().replaceAll('-', ' '))).statusCode).toBe(200);
    attempt = await passwordStep(t, who);
    expect((await secondStep(t, attempt.cookie, first)).statusCode).toBe(400);
    const session = cookieHeader(await secondStep(t, attempt.cookie, second));
    expect((await call(t, session, 'GET', `${OWN}/`)).json().data.recoveryCodesLeft).toBe(8);
    const used = await t.db.query<{ row: string }>(
      'SELECT row_to_json(e)::text AS row FROM security_events e WHERE type = $1 AND entity_id = $2',
      ['recovery_code_used', String(who.id)],
    );
    expect(occurrences(used)).toBe(2);
  });

  it('are 24 characters of six groups (118 bits, enough for a plain hash), and a 16-character one issued before still signs in', async () => {
    const who = await t.newEmployee({ role: 'Seller' });
    const { recoveryCodes } = await enrolTotp(t, await passwordLogin(t, who));
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-hjkmnp-z2-9]{4}(-[a-hjkmnp-z2-9]{4}){5}$/);
    const earlier = 'abcd-efgh-jkmn-pqrs';
    await t.db.query('INSERT INTO employee_recovery_codes (employee_id, code_hash) VALUES ($1, $2)', [who.id, recoveryCodeHash(earlier)]);
    const attempt = await passwordStep(t, who);
    expect((await secondStep(t, attempt.cookie, earlier)).statusCode).toBe(200);
  });
});

describe('an authenticator app set up before JWT_SECRET was changed', () => {
  it('counts as no app: its codes are wrong (not a fault), a recovery code signs in, and the app is set up again', async () => {
    const who = await t.newEmployee({ role: 'Seller' });
    const { secret, recoveryCodes } = await enrolTotp(t, await passwordLogin(t, who));
    // The secret as a server with another JWT_SECRET sealed it: this server's key cannot open it.
    const sealedElsewhere = secretBox('another-jwt-secret-of-at-least-32-characters').seal(secret);
    await t.db.query('UPDATE employee_totp SET secret = $1 WHERE employee_id = $2', [sealedElsewhere, who.id]);

    const attempt = await passwordStep(t, who);
    expect(attempt.res.json()).toEqual({ data: 'SecondFactor' });
    const token = attempt.cookie.match(/bs_second_factor=([^;]+)/)![1]!;
    const rp = { origin: 'http://localhost', rpID: 'localhost' };
    expect(await t.app.secondFactor.proofOptions(who.id, rp, { signInToken: token })).toMatchObject({ totp: false, recoveryCodes: true });
    const appCode = await secondStep(t, attempt.cookie, totpCode(secret));
    expect(appCode.statusCode, appCode.body).toBe(400);
    const signedIn = await secondStep(t, attempt.cookie, recoveryCodes[0]!);
    expect(signedIn.statusCode).toBe(200);
    const session = cookieHeader(signedIn);
    expect((await call(t, session, 'GET', `${OWN}/`)).json().data).toMatchObject({ totp: false, recoveryCodesLeft: 9 });

    // Set up again (the recovery code was the step-up): the new secret signs in.
    const { secret: renewed } = await enrolTotp(t, session);
    expect((await call(t, session, 'GET', `${OWN}/`)).json().data).toMatchObject({ totp: true });
    // A step later, as its setup's code is spent.
    fixClock(Date.now() + TOTP_PERIOD_SECONDS * 1000);
    const next = await passwordStep(t, who);
    expect((await secondStep(t, next.cookie, totpCode(renewed, Date.now()))).statusCode).toBe(200);
  });
});

describe('step-up for the sensitive actions', () => {
  const REFRESH = '/api/public/authentication/refresh-tokens/employee';
  const refresh = (cookie: string) => t.app.inject({ method: 'POST', url: REFRESH, headers: { cookie } });
  const me = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/employee/employee/', headers: { cookie } });
  /** A refresh refused as from before a renewal: said so, and the browser's cookies (the renewal's by now) left alone. */
  const expectRefusedAsRenewed = async (res: Awaited<ReturnType<typeof refresh>>) => {
    expect(res.statusCode, res.body).toBe(401);
    expect(res.json().error.code).toBe('SESSION_RENEWED');
    expect(res.cookies).toEqual([]);
  };
  /** The session's refresh tokens not yet expired, by generation. */
  const liveRefreshTokens = (familyId: string) =>
    t.db.query<{ generation: number }>(
      'SELECT generation FROM refresh_tokens WHERE family_id = $1 AND expires_at > now() ORDER BY generation',
      [familyId],
    );
  /** The claims a session's access cookie carries: its session (`fam`) and the generation of its tokens (`gen`). */
  const accessClaims = (cookie: string) => {
    const token = /bs_employee_at=([^;]+)/.exec(cookie)![1]!;
    return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { fam: string; gen: number };
  };

  it("renews the session's tokens: those from before are refused, the new ones hold the step-up, and it is the same session", async () => {
    const who = await t.newEmployee({ role: 'Admin' });
    const signedIn = await passwordLogin(t, who);
    const { secret } = await enrolTotp(t, signedIn);
    // Enrolling proved the app: the sign-in's cookies were renewed there already.
    expect((await me(signedIn)).statusCode).toBe(401);
    await expectRefusedAsRenewed(await refresh(signedIn));
    const before = latest(signedIn);
    expect(accessClaims(before)).toMatchObject({ fam: accessClaims(signedIn).fam, gen: 1 });

    const stepUp = await call(t, before, 'POST', `${OWN}/step-up`, { code: totpCode(secret, Date.now() + TOTP_PERIOD_SECONDS * 1000) });
    expect(stepUp.statusCode, stepUp.body).toBe(200);
    const after = latest(before);
    expect(accessClaims(after)).toEqual(expect.objectContaining({ fam: accessClaims(before).fam, gen: 2 }));
    // The tokens the session had a moment ago, access and refresh, are refused; the new ones hold the step-up.
    expect((await me(before)).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: `${OWN}/recovery-codes`, headers: { cookie: before } })).statusCode).toBe(401);
    await expectRefusedAsRenewed(await refresh(before));
    expect((await t.app.inject({ method: 'POST', url: `${OWN}/recovery-codes`, headers: { cookie: after } })).statusCode).toBe(200);
    // Still the one session (listed once, as this one), and its new refresh token rotates as any does.
    const sessions = (await t.app.inject({ method: 'GET', url: '/api/employee/sessions/', headers: { cookie: after } })).json().data;
    expect(sessions).toEqual([expect.objectContaining({ id: accessClaims(after).fam, current: true })]);
    const rotated = await refresh(after);
    expect(rotated.statusCode).toBe(200);
    expect((await me(cookieHeader(rotated, after))).statusCode).toBe(200);
  });

  it("a refresh that read the session before a step-up renewed its tokens stores nothing: the old token's holder gets no live session", async () => {
    const who = await t.newEmployee({ role: 'Seller' });
    const owner = await passwordLogin(t, who);
    const { secret } = await enrolTotp(t, owner);
    const before = latest(owner);
    const { fam } = accessClaims(before);
    // The refresh is held after it read the session, at its count of the session's refreshes, while the step-up renews it.
    await t.db.query(
      "INSERT INTO throttle_counters (key, hits, window_ends_at, last_hit_at) VALUES ($1, 0, now() + interval '1 hour', now())",
      [`refresh:${fam}`],
    );
    const holder = new pg.Client({ connectionString: t.db.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM throttle_counters WHERE key = $1 FOR UPDATE', [`refresh:${fam}`]);
      const held = refresh(before);
      await untilStatementsWaitOnLocks(t.db, 1);
      const stepUp = await call(t, before, 'POST', `${OWN}/step-up`, { code: totpCode(secret, Date.now() + TOTP_PERIOD_SECONDS * 1000) });
      expect(stepUp.statusCode, stepUp.body).toBe(200);
      await holder.query('COMMIT');
      await expectRefusedAsRenewed(await held);
    } finally {
      await holder.end();
    }
    // It stored nothing: the session's one live refresh token is the step-up's.
    expect(await liveRefreshTokens(fam)).toEqual([{ generation: 2 }]);
    expect((await me(latest(before))).statusCode).toBe(200);
  });

  it('a refresh token from before a renewal is refused even where it still looks unexpired, and leaves the cookies alone; nor does it sign the session out', async () => {
    const who = await t.newEmployee({ role: 'Seller' });
    const owner = await passwordLogin(t, who);
    const { secret } = await enrolTotp(t, owner);
    const spent = latest(owner);
    const { fam } = accessClaims(spent);
    const rotated = await refresh(spent);
    expect(rotated.statusCode).toBe(200);
    const unspent = cookieHeader(rotated, spent);
    const stepUp = await call(t, unspent, 'POST', `${OWN}/step-up`, { code: totpCode(secret, Date.now() + TOTP_PERIOD_SECONDS * 1000) });
    expect(stepUp.statusCode, stepUp.body).toBe(200);
    const renewed = latest(unspent);
    // As a rotation that read them before the renewal expired them, or an instance whose clock runs
    // behind, would see them: not yet expired. One was spent a moment ago (within the reuse interval).
    await t.db.query("UPDATE refresh_tokens SET expires_at = now() + interval '1 day' WHERE family_id = $1 AND generation < 2", [fam]);
    for (const old of [spent, unspent]) await expectRefusedAsRenewed(await refresh(old));
    await t.app.inject({ method: 'DELETE', url: '/api/public/authentication/cookies/', headers: { cookie: unspent } });
    expect((await me(renewed)).statusCode).toBe(200);
    expect((await refresh(renewed)).statusCode).toBe(200);
  });

  it('two step-ups at once from one session renew it once: the other is refused as renewed meanwhile, and the browser keeps the tokens that work', async () => {
    const who = await t.newEmployee({ role: 'Seller' });
    const owner = await passwordLogin(t, who);
    const { recoveryCodes } = await enrolTotp(t, owner);
    const before = latest(owner);
    const { fam } = accessClaims(before);
    // Both are held at their first write to the session (a wrong answer's reservation), having read it.
    const holder = new pg.Client({ connectionString: t.db.url });
    await holder.connect();
    let answers: Awaited<ReturnType<typeof t.app.inject>>[];
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM session_families WHERE id = $1 FOR UPDATE', [fam]);
      const stepUp = (code: string) =>
        t.app.inject({ method: 'POST', url: `${OWN}/step-up`, headers: { cookie: before }, payload: { code } });
      const both = Promise.all([stepUp(recoveryCodes[0]!), stepUp(recoveryCodes[1]!)]);
      await untilStatementsWaitOnLocks(t.db, 2);
      await holder.query('COMMIT');
      answers = await both;
    } finally {
      await holder.end();
    }
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    // Not a 401, which the web app would answer by sending it again with its code spent; nor any cookie.
    const lost = answers.find((a) => a.statusCode === 409)!;
    expect(lost.json().error.code).toBe('RENEWED_MEANWHILE');
    expect(lost.cookies).toEqual([]);
    const renewed = cookieHeader(answers.find((a) => a.statusCode === 200)!, before);
    expect(accessClaims(renewed).gen).toBe(accessClaims(before).gen + 1);
    expect((await me(renewed)).statusCode).toBe(200);
    expect(await liveRefreshTokens(fam)).toEqual([{ generation: accessClaims(renewed).gen }]);
  });

  it('a call with an access token from before the step-up that proved the factor is not lent the proof: its session check refuses it', async () => {
    const who = await t.newEmployee({ role: 'Seller' });
    const owner = await passwordLogin(t, who);
    const { secret } = await enrolTotp(t, owner);
    const before = latest(owner);
    const stepUp = await call(t, before, 'POST', `${OWN}/step-up`, { code: totpCode(secret, Date.now() + TOTP_PERIOD_SECONDS * 1000) });
    expect(stepUp.statusCode, stepUp.body).toBe(200);
    // A call that passed its session check with the old token just before the renewal reaches the step-up's check after it.
    const { fam, gen } = accessClaims(before);
    await expect(t.app.secondFactor.steppedUp(who.id, { familyId: fam, generation: gen })).rejects.toMatchObject({ statusCode: 401 });
    await expect(t.app.secondFactor.steppedUp(who.id, { familyId: fam, generation: accessClaims(latest(before)).gen })).resolves.toBe(true);
  });

  it("an app whose session's tokens cannot be renewed is not kept: nothing changes until a retry does both", async () => {
    const who = await t.newEmployee({ role: 'Seller' });
    const session = await passwordLogin(t, who);
    const started = await call(t, session, 'POST', `${OWN}/totp`, { currentPassword: DEMO.admin.password });
    const { secret } = started.json().data as { secret: string };
    await whileSessionsCannotBeRenewed(t.db, { audience: 'employee', id: who.id }, async () => {
      expect((await call(t, session, 'POST', `${OWN}/totp/confirm`, { code: totpCode(secret) })).statusCode).toBeGreaterThanOrEqual(500);
    });
    expect(latest(session)).toBe(session);
    expect((await call(t, session, 'GET', `${OWN}/`)).json().data).toMatchObject({ totp: false, recoveryCodesLeft: 0 });
    const confirmed = await call(t, session, 'POST', `${OWN}/totp/confirm`, { code: totpCode(secret) });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().data.recoveryCodes).toHaveLength(10);
    expect((await me(session)).statusCode).toBe(401);
    expect((await me(latest(session))).statusCode).toBe(200);
  });

  it('opens them for 10 minutes after a second factor, then asks again (403 STEP_UP_REQUIRED) until a new one', async () => {
    const who = await t.newEmployee({ role: 'Admin' });
    const { secret } = await enrolTotp(t, await passwordLogin(t, who));
    const start = Date.now();
    fixClock(start);
    const attempt = await passwordStep(t, who);
    let session = cookieHeader(await secondStep(t, attempt.cookie, totpCode(secret, start + 30_000)));
    const exportClients = () => call(t, session, 'GET', '/api/employee/statistics/clients/?pageNumber=1&pageSize=5');
    expect((await exportClients()).statusCode).toBe(200);

    // Nine minutes on, still open (the access token is refreshed as the web app would).
    fixClock(start + 9 * 60_000);
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/public/authentication/refresh-tokens/Admin',
      headers: { cookie: session },
    });
    session = cookieHeader(refreshed, session);
    expect((await exportClients()).statusCode).toBe(200);

    // Past ten minutes: refused with the code the screens turn into a prompt.
    fixClock(start + 10 * 60_000 + 1000);
    const refused = await exportClients();
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('STEP_UP_REQUIRED');
    for (const [method, url, payload] of [
      ['POST', '/api/employee/', {}],
      ['DELETE', '/api/employee/999999', undefined],
      ['PUT', '/api/employee/999999/role', { role: 'Seller' }],
      ['POST', '/api/employee/catalog/import/999999/run', { skipInvalid: false }],
      ['DELETE', '/api/employee/999999/second-factor', undefined],
      // A new password ends the owner's other sessions: a stolen session and a phished password must not.
      ['PUT', '/api/employee/password/', { oldPassword: DEMO.admin.password, newPassword: 'A-new-passphrase-42' }],
      // Nor keep ending the owner's sessions.
      ['POST', '/api/employee/sessions/end', { sessionIds: ['0b0c5e3a-7c1d-4c7e-9a53-2f1d6a0e0001'], password: DEMO.admin.password }],
    ] as const) {
      const res = await call(t, session, method, url, payload);
      expect([res.statusCode, res.json().error?.code]).toEqual([403, 'STEP_UP_REQUIRED']);
    }
    // Reads that are not sensitive still answer.
    expect((await call(t, session, 'GET', '/api/employee/employees/')).statusCode).toBe(200);
    // Their own information saves as before; a new e-mail, the name they sign in with, asks first.
    const ownInfo = { ...informationOf(who), address: '2 Main Street' };
    const newEmail = () => call(t, session, 'PUT', '/api/employee/', { ...ownInfo, email: `new-${who.account}` });
    expect((await call(t, session, 'PUT', '/api/employee/', ownInfo)).statusCode).toBe(200);
    const renamed = await newEmail();
    expect([renamed.statusCode, renamed.json().error?.code]).toEqual([403, 'STEP_UP_REQUIRED']);

    // A step-up with the app's next code opens them again.
    const stepUp = await call(t, session, 'POST', `${OWN}/step-up`, { code: totpCode(secret, start + 10 * 60_000 + 30_000) });
    expect(stepUp.statusCode).toBe(200);
    expect(Date.parse(stepUp.json().data.stepUpUntil)).toBe(start + 20 * 60_000 + 1000);
    expect((await exportClients()).statusCode).toBe(200);
    expect((await newEmail()).json().data.email).toBe(`new-${who.account}`);
  });

  it('ends a session at its fifth wrong answer in a row, before it could lock the factor: the owner still signs in', async () => {
    const who = await t.newEmployee({ role: 'Seller' });
    const owner = await passwordLogin(t, who);
    const { secret, recoveryCodes } = await enrolTotp(t, owner);
    // A session taken from the owner's browser, guessing at the step-up from the thief's address.
    const stolen = cookieHeader(await secondStep(t, (await passwordStep(t, who)).cookie, recoveryCodes[0]!));
    const stepUp = async (cookie: string, code: string) => {
      const sent = latest(cookie);
      const res = await t.app.inject({
        method: 'POST',
        url: `${OWN}/step-up`,
        headers: { cookie: sent },
        payload: { code },
        remoteAddress: '203.0.113.66',
      });
      keepRenewal(sent, res);
      return res;
    };
    // Four wrong, a right one (which forgets them), then five wrong: only the last of them ends it.
    for (let i = 0; i < 4; i++) expect((await stepUp(stolen, '000000')).statusCode).toBe(400);
    expect((await stepUp(stolen, recoveryCodes[1]!)).statusCode).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await stepUp(stolen, '000000')).statusCode);
    expect(statuses).toEqual([400, 400, 400, 400, 401]);
    expect((await call(t, stolen, 'GET', '/api/employee/employee/')).statusCode).toBe(401);
    const ended = await t.db.query<{ actor: string }>(
      "SELECT actor FROM security_events WHERE type = 'step_up_session_ended' AND entity_id = $1",
      [String(who.id)],
    );
    expect(ended).toEqual([{ actor: `employee:${who.id}` }]);
    // The owner's own session, and their next sign-in with the app, are untouched.
    expect((await call(t, owner, 'GET', '/api/employee/employee/')).statusCode).toBe(200);
    const again = await secondStep(t, (await passwordStep(t, who)).cookie, totpCode(secret, Date.now() + TOTP_PERIOD_SECONDS * 1000));
    expect(again.statusCode, again.body).toBe(200);
  });

  it("keeps each session's passkey challenge: another session asking for one does not replace it", async () => {
    const who = await t.newEmployee({ role: 'Seller' });
    const mine = await passwordLogin(t, who);
    const { recoveryCodes } = await enrolTotp(t, mine);
    await storePasskey(who.id, `cred-${who.id}`);
    const other = cookieHeader(await secondStep(t, (await passwordStep(t, who)).cookie, recoveryCodes[0]!));
    const challengeOf = async (cookie: string) => {
      const options = await call(t, cookie, 'POST', `${OWN}/step-up/options`);
      expect(options.statusCode, options.body).toBe(200);
      return options.json().data.passkey.challenge as string;
    };
    const first = await challengeOf(mine);
    const second = await challengeOf(other);
    const kept = await t.db.query<{ webauthn: string }>(
      "SELECT webauthn FROM sign_in_challenges WHERE employee_id = $1 AND purpose = 'step_up' ORDER BY webauthn",
      [who.id],
    );
    expect(kept.map((c) => c.webauthn)).toEqual([first, second].sort());
  });

  it('checks no more than five of a burst of wrong answers from one session at once', async () => {
    const who = await t.newEmployee({ role: 'Seller' });
    const session = await passwordLogin(t, who);
    await enrolTotp(t, session);
    const answers = await Promise.all(Array.from({ length: 12 }, () => call(t, session, 'POST', `${OWN}/step-up`, { code: '000000' })));
    const statuses = answers.map((a) => a.statusCode);
    // Five are checked; the rest find none left and end the session (whichever gets there first).
    expect(statuses.filter((s) => s === 400).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s !== 400).every((s) => s === 401)).toBe(true);
    expect((await call(t, session, 'GET', '/api/employee/employee/')).statusCode).toBe(401);
    const ended = await t.db.query("SELECT 1 FROM security_events WHERE type = 'step_up_session_ended' AND entity_id = $1", [
      String(who.id),
    ]);
    expect(ended).toHaveLength(1);
    const [failed] = await t.db.query<{ n: number }>(
      "SELECT coalesce(sum(count), 0)::int AS n FROM security_events WHERE type = 'second_factor_failed' AND actor = $1",
      [who.account],
    );
    expect(failed!.n).toBe(5);
  });

  it('lets an employee without a second factor through (STAFF_MFA optional)', async () => {
    await expectDemoAdminInByPassword(t);
  });
});

describe("an employee's own sign-in e-mail", () => {
  it('changes, for an employee without a second factor, only with their password: a session alone cannot make it a thief’s', async () => {
    const who = await t.newEmployee({ role: 'Seller' });
    const session = await passwordLogin(t, who);
    const ownInfo = informationOf(who);
    const save = (change: Record<string, string>) => call(t, session, 'PUT', '/api/employee/', { ...ownInfo, ...change });
    // The rest of their information saves without it.
    expect((await save({ address: '2 Main Street' })).statusCode).toBe(200);
    const renamed = `taken-${who.account}`;
    const missing = await save({ address: '2 Main Street', email: renamed });
    expect([missing.statusCode, missing.json().error]).toEqual([
      400,
      expect.objectContaining({ code: 'PASSWORD_REQUIRED', message: 'Enter your current password to change your e-mail.' }),
    ]);
    const wrong = await save({ address: '2 Main Street', email: renamed, currentPassword: 'not-the-password' });
    expect([wrong.statusCode, wrong.json().error.code]).toEqual([400, 'WRONG_PASSWORD']);
    // A wrong password here counts like a wrong sign-in, and nothing was written.
    const [failed] = await t.db.query<{ n: number }>(
      "SELECT coalesce(sum(count), 0)::int AS n FROM security_events WHERE type = 'password_check_failed' AND actor = $1",
      [who.account],
    );
    expect(failed!.n).toBe(1);
    expect(await t.db.query('SELECT email FROM employees WHERE id = $1', [who.id])).toEqual([{ email: who.account }]);

    const changed = await save({ address: '2 Main Street', email: renamed, currentPassword: who.password });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().data.email).toBe(renamed);
  });

  it('is not put back by a save read before the proved change committed: that save is refused, and asks nothing', async () => {
    const who = await t.newEmployee({ role: 'Seller' });
    const session = await passwordLogin(t, who);
    const ownInfo = informationOf(who);
    const renamed = `proved-${who.account}`;
    // The owner's proved change holds the row; a save of the old e-mail (from another tab, or a stolen
    // session) reads the e-mail before it commits, and waits for the row.
    const owner = new pg.Client({ connectionString: t.db.url });
    await owner.connect();
    try {
      await owner.query('BEGIN');
      await owner.query('SELECT 1 FROM employees WHERE id = $1 FOR UPDATE', [who.id]);
      const stale = call(t, session, 'PUT', '/api/employee/', { ...ownInfo, address: '9 Main Street' });
      await untilStatementsWaitOnLocks(t.db, 1);
      await owner.query('UPDATE employees SET email = $1 WHERE id = $2', [renamed, who.id]);
      await owner.query('COMMIT');
      const refused = await stale;
      expect([refused.statusCode, refused.json().error?.message]).toEqual([
        409,
        'Your e-mail was changed meanwhile. Reload your information and save again.',
      ]);
    } finally {
      await owner.end();
    }
    expect(await t.db.query('SELECT email, address FROM employees WHERE id = $1', [who.id])).toEqual([
      { email: renamed, address: '1 Main Street' },
    ]);
  });
});

describe('a first second factor', () => {
  it("needs the employee's password, so a session alone cannot enrol an app or a passkey of its own; once one is set up, the step-up guards the next", async () => {
    const who = await t.newEmployee({ role: 'Seller' });
    const session = await passwordLogin(t, who);
    for (const url of [`${OWN}/totp`, `${OWN}/passkeys/options`]) {
      const missing = await call(t, session, 'POST', url, {});
      expect([missing.statusCode, missing.json().error]).toEqual([
        400,
        expect.objectContaining({ code: 'PASSWORD_REQUIRED', message: 'Enter your password to set up your first second factor.' }),
      ]);
      const wrong = await call(t, session, 'POST', url, { currentPassword: 'not-the-password' });
      expect([wrong.statusCode, wrong.json().error.code]).toEqual([400, 'WRONG_PASSWORD']);
    }
    // A wrong password here counts like a wrong sign-in.
    const [failed] = await t.db.query<{ n: number }>(
      "SELECT coalesce(sum(count), 0)::int AS n FROM security_events WHERE type = 'password_check_failed' AND actor = $1",
      [who.account],
    );
    expect(failed!.n).toBe(2);
    expect((await call(t, session, 'GET', `${OWN}/`)).json().data).toMatchObject({ totp: false, passkeys: [] });

    const { secret } = await enrolTotp(t, session);
    // With a factor, the password is not what guards adding a passkey: the step-up is (just made by enrolling).
    // Sent without a body, as before the password was asked for, it is answered as before.
    expect((await call(t, session, 'POST', `${OWN}/passkeys/options`)).statusCode).toBe(200);
    expect(secret).toBeTruthy();
  });

  it("cannot be had by guessing the owner's pending app setup from a session: wrong codes lock the setup as wrong sign-in codes lock a factor", async () => {
    const who = await t.newEmployee({ role: 'Admin' });
    const owner = await passwordLogin(t, who);
    const started = await call(t, owner, 'POST', `${OWN}/totp`, { currentPassword: who.password });
    const { secret } = started.json().data as { secret: string };
    const stolen = await passwordLogin(t, who);
    const wrongCode = totpCode(secret, Date.now() - 10 * TOTP_PERIOD_SECONDS * 1000);
    const guesses = [];
    for (let i = 0; i < 6; i++) guesses.push((await call(t, stolen, 'POST', `${OWN}/totp/confirm`, { code: wrongCode })).statusCode);
    // Five from an address, as at sign-in (ten from any, thirty a day: the same counters).
    expect(guesses).toEqual([...Array(5).fill(400), 429]);
    // Locked for every session there, the right code included, and recorded without the code.
    const locked = await call(t, stolen, 'POST', `${OWN}/totp/confirm`, { code: totpCode(secret) });
    expect([locked.statusCode, locked.headers['retry-after'], locked.json().error.message]).toEqual([
      429,
      expect.any(String),
      'Too many wrong codes. Please try again later.',
    ]);
    expect((await call(t, owner, 'GET', `${OWN}/`)).json().data).toMatchObject({ totp: false });
    const events = await t.db.query<{ type: string; details: { method: string; stage: string } | null; row: string }>(
      "SELECT type, details, row_to_json(e)::text AS row FROM security_events e WHERE actor IN ($1, 'app-setup:' || $1) ORDER BY id",
      [who.account],
    );
    expect(occurrences(events.filter((e) => e.type === 'second_factor_failed'))).toBe(5);
    expect(events.find((e) => e.type === 'second_factor_failed')?.details).toEqual({ method: 'totp', stage: 'setup' });
    expect(events.map((e) => e.type)).toContain('login_locked');
    expect(events.map((e) => e.row).join()).not.toContain(wrongCode);
    // On counters of the setup's own: the factors the employee signs in with are not locked by it.
    const counters = await t.db.query<{ key: string }>('SELECT key FROM throttle_counters WHERE key LIKE $1', [`%:employee:${who.id}%`]);
    expect(counters.length).toBeGreaterThan(0);
    expect(counters.every(({ key }) => key.startsWith('app-setup:'))).toBe(true);
  });

  it('a pending app setup removed ends no session: it was never a way to sign in', async () => {
    const who = await t.newEmployee({ role: 'Seller' });
    const owner = await passwordLogin(t, who);
    await call(t, owner, 'POST', `${OWN}/totp`, { currentPassword: who.password });
    const other = await passwordLogin(t, who);
    expect((await call(t, other, 'DELETE', `${OWN}/totp`)).statusCode).toBe(200);
    expect((await call(t, owner, 'GET', `${OWN}/`)).statusCode).toBe(200);
    const confirm = await call(t, owner, 'POST', `${OWN}/totp/confirm`, { code: '123456' });
    expect([confirm.statusCode, confirm.json().error.code]).toEqual([409, expect.any(String)]);
  });
});

describe("a second factor's day of wrong answers", () => {
  // Windows of 1.5 s that lock after two failures, and a day that locks after five.
  let d: TestApp;
  beforeAll(async () => {
    d = await createTestApp({ throttle: { windowMs: 1500, perPair: 1000, perAccount: 2, perAddress: 1000, secondFactorPerDay: 5 } });
  });
  const pastTheWindow = () => new Promise((resolve) => setTimeout(resolve, 1600));

  it('locks the factor for a day after five wrong answers across windows; a right answer before that forgets them', async () => {
    const who = await d.newEmployee({ role: 'Seller' });
    const { secret } = await enrolTotp(d, await passwordLogin(d, who));
    // The current step's code was spent on enrolment: the next step's is as good.
    const rightCode = () => totpCode(secret, Date.now() + TOTP_PERIOD_SECONDS * 1000);

    const first = await passwordStep(d, who);
    expect([(await secondStep(d, first.cookie, '000000')).statusCode, (await secondStep(d, first.cookie, '000000')).statusCode]).toEqual([
      400, 400,
    ]);
    const windowLock = await secondStep(d, first.cookie, '000000');
    expect(windowLock.statusCode).toBe(429);
    // The window's lock says when the window ends, not the day's count.
    expect(Number(windowLock.headers['retry-after'])).toBeLessThanOrEqual(2);
    await pastTheWindow();
    expect((await secondStep(d, first.cookie, rightCode())).statusCode).toBe(200);

    // Counted afresh: the two failures before the right answer are forgotten.
    const second = await passwordStep(d, who);
    const locks = async () =>
      (
        await d.db.query<{ n: number }>(
          `SELECT coalesce(sum(count), 0)::int AS n FROM security_events WHERE actor = $1 AND type = 'login_locked'`,
          [`second-factor:${who.account}`],
        )
      )[0]!.n;
    const statuses: number[] = [];
    let locksBeforeTheFifth = 0;
    for (const round of [2, 2, 1]) {
      if (round === 1) locksBeforeTheFifth = await locks();
      for (let i = 0; i < round; i++) statuses.push((await secondStep(d, second.cookie, '000000')).statusCode);
      await pastTheWindow();
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400]);
    // The fifth, alone in its window, locked the day, and the lock is recorded.
    expect(await locks()).toBe(locksBeforeTheFifth + 1);
    // The window has passed, and even the right code waits a day.
    const locked = await secondStep(d, second.cookie, rightCode());
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(23 * 60 * 60);
  });

  it("counts an employee's failures whatever e-mail they sign in with: a change in a session starts no count afresh", async () => {
    const who = await d.newEmployee({ role: 'Seller' });
    const session = await passwordLogin(d, who);
    await enrolTotp(d, session);
    const before = await passwordStep(d, who);
    for (let i = 0; i < 2; i++) expect((await secondStep(d, before.cookie, '000000')).statusCode).toBe(400);

    const renamed = `${who.account.split('@')[0]}-new@bookshop.test`;
    const changed = await call(d, session, 'PUT', '/api/employee/', informationOf({ account: renamed }));
    expect(changed.statusCode, changed.body).toBe(200);
    const after = await passwordStep(d, { ...who, account: renamed });
    expect(after.res.statusCode).toBe(200);
    expect((await secondStep(d, after.cookie, '000000')).statusCode).toBe(429);
  });
});

describe("an Admin's reset of another employee's second factor", () => {
  it('removes every factor and code, ends their sessions, is audited, and never takes the last Admin factor', async () => {
    const seller = await t.newEmployee({ role: 'Seller' });
    const sellerSession = await passwordLogin(t, seller);
    await enrolTotp(t, sellerSession);
    const admin = await t.newEmployee({ role: 'Admin' });
    const adminSession = await passwordLogin(t, admin);

    // An Admin without a factor may reset (optional policy); the seller is signed out and signs in with the password.
    expect((await call(t, adminSession, 'DELETE', `/api/employee/${seller.id}/second-factor`)).statusCode).toBe(200);
    expect((await call(t, sellerSession, 'GET', '/api/employee/employee/')).statusCode).toBe(401);
    expect((await passwordStep(t, seller)).res.json()).toEqual({ data: 'Seller' });
    const [reset] = await t.db.query<{ actor: string }>('SELECT actor FROM security_events WHERE type = $1 AND entity_id = $2', [
      'second_factor_reset',
      String(seller.id),
    ]);
    expect(reset?.actor).toBe(`employee:${admin.id}`);
    expect((await call(t, adminSession, 'DELETE', `/api/employee/${admin.id}/second-factor`)).statusCode).toBe(403);

    // The last Admin with a second factor keeps it: neither another Admin nor they may remove it.
    await t.db.query(
      `DELETE FROM employee_totp WHERE employee_id IN (SELECT id FROM employees WHERE role = 'Admin');
       DELETE FROM employee_passkeys WHERE employee_id IN (SELECT id FROM employees WHERE role = 'Admin')`,
    );
    const lastAdmin = await t.newEmployee({ role: 'Admin' });
    const lastSession = await passwordLogin(t, lastAdmin);
    const { secret } = await enrolTotp(t, lastSession);
    const refused = await call(t, adminSession, 'DELETE', `/api/employee/${lastAdmin.id}/second-factor`);
    expect(refused.statusCode).toBe(409);
    expect((await call(t, lastSession, 'DELETE', `${OWN}/totp`)).statusCode).toBe(409);
    expect(secret).toBeTruthy();
  });

  it('a reset whose sessions cannot be ended changes nothing; a retry removes the factor and ends them together', async () => {
    const seller = await t.newEmployee({ role: 'Seller' });
    const sellerSession = await passwordLogin(t, seller);
    await enrolTotp(t, sellerSession);
    const adminSession = await passwordLogin(t, await t.newEmployee({ role: 'Admin' }));
    const reset = () => call(t, adminSession, 'DELETE', `/api/employee/${seller.id}/second-factor`);
    await whileEmployeeSessionsCannotEnd(seller.id, async () => {
      expect((await reset()).statusCode).toBeGreaterThanOrEqual(500);
    });
    expect(await t.db.query('SELECT 1 FROM employee_totp WHERE employee_id = $1', [seller.id])).toHaveLength(1);
    expect((await call(t, sellerSession, 'GET', '/api/employee/employee/')).statusCode).toBe(200);
    expect((await reset()).statusCode).toBe(200);
    expect(await t.db.query('SELECT 1 FROM employee_totp WHERE employee_id = $1', [seller.id])).toHaveLength(0);
    expect((await call(t, sellerSession, 'GET', '/api/employee/employee/')).statusCode).toBe(401);
  });

  it("an Admin's app confirmed while its removal waited for it is the last Admin factor still: the removal is refused", async () => {
    const lone = await createTestApp();
    const who = await lone.newEmployee({ role: 'Admin' });
    const session = await passwordLogin(lone, who);
    expect((await call(lone, session, 'POST', `${OWN}/totp`, { currentPassword: who.password })).statusCode).toBe(200);
    // The confirmation, held open: the removal reads no factor, then waits for the app's row.
    const holder = new pg.Client({ connectionString: lone.db.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(
        'UPDATE employee_totp SET secret = pending_secret, pending_secret = NULL, confirmed_at = now() WHERE employee_id = $1',
        [who.id],
      );
      const removal = call(lone, session, 'DELETE', `${OWN}/totp`);
      await untilStatementsWaitOnLocks(lone.db, 1);
      await holder.query('COMMIT');
      expect((await removal).statusCode).toBe(409);
    } finally {
      await holder.end();
    }
    expect(await lone.db.query('SELECT 1 FROM employee_totp WHERE employee_id = $1 AND secret IS NOT NULL', [who.id])).toHaveLength(1);
  });

  it("a reset still ends the sessions when the employee's own removal got there first and left it nothing to remove", async () => {
    const seller = await t.newEmployee({ role: 'Seller' });
    const sellerSession = await passwordLogin(t, seller);
    await enrolTotp(t, sellerSession);
    const adminSession = await passwordLogin(t, await t.newEmployee({ role: 'Admin' }));
    // The employee's own removal, held open: the reset sees the factor, then waits for the row.
    const holder = new pg.Client({ connectionString: t.db.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM employees WHERE id = $1 FOR NO KEY UPDATE', [seller.id]);
      await holder.query('DELETE FROM employee_totp WHERE employee_id = $1', [seller.id]);
      const reset = call(t, adminSession, 'DELETE', `/api/employee/${seller.id}/second-factor`);
      await untilStatementsWaitOnLocks(t.db, 1);
      await holder.query('COMMIT');
      expect((await reset).statusCode).toBe(200);
    } finally {
      await holder.end();
    }
    expect((await call(t, sellerSession, 'GET', '/api/employee/employee/')).statusCode).toBe(401);
  });

  it('two Admins removing their own last factors at once: one is refused, and an Admin keeps a factor', async () => {
    await t.db.query(
      `DELETE FROM employee_totp WHERE employee_id IN (SELECT id FROM employees WHERE role = 'Admin');
       DELETE FROM employee_passkeys WHERE employee_id IN (SELECT id FROM employees WHERE role = 'Admin')`,
    );
    const sessions = [];
    for (const admin of [await t.newEmployee({ role: 'Admin' }), await t.newEmployee({ role: 'Admin' })]) {
      const session = await passwordLogin(t, admin);
      await enrolTotp(t, session);
      sessions.push(session);
    }
    // Held from outside, their apps' rows keep both removals waiting until both have passed any check made before them.
    const holder = new pg.Client({ connectionString: t.db.url });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query(`SELECT 1 FROM employee_totp WHERE employee_id IN (SELECT id FROM employees WHERE role = 'Admin') FOR UPDATE`);
    const removals = Promise.all(sessions.map((session) => call(t, session, 'DELETE', `${OWN}/totp`)));
    await untilStatementsWaitOnLocks(t.db, 2);
    await holder.query('COMMIT');
    await holder.end();
    const answers = await removals;
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.statusCode === 409)!.json().error.message).toBe(
      'No Admin would have a second factor left. Add another factor first, or another Admin must set one up.',
    );
    const [left] = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM employee_totp WHERE secret IS NOT NULL AND employee_id IN (SELECT id FROM employees WHERE role = 'Admin')`,
    );
    expect(left!.n).toBe(1);
  });
});

describe('the last Admin with a second factor', () => {
  it('is not made a Seller until another Admin has a factor', async () => {
    await t.db.query(
      `DELETE FROM employee_totp WHERE employee_id IN (SELECT id FROM employees WHERE role = 'Admin');
       DELETE FROM employee_passkeys WHERE employee_id IN (SELECT id FROM employees WHERE role = 'Admin')`,
    );
    const [guarded, other] = [await t.newEmployee({ role: 'Admin' }), await t.newEmployee({ role: 'Admin' })];
    await enrolTotp(t, await passwordLogin(t, guarded));
    const otherSession = await passwordLogin(t, other);
    const demote = () => call(t, otherSession, 'PUT', `/api/employee/${guarded.id}/role`, { role: 'Seller' });
    const refused = await demote();
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(
      'This is the only Admin with a second factor. Another Admin must set one up before this one stops being an Admin.',
    );
    await enrolTotp(t, otherSession);
    expect((await demote()).statusCode).toBe(200);
  });
});

describe('STAFF_MFA=required', () => {
  let r: TestApp;
  beforeAll(async () => {
    r = await createTestApp({ env: { STAFF_MFA: 'required' } });
  });

  it('lets an Admin without a second factor reach only its enrolment, and everything once enrolled', async () => {
    const who = await r.newEmployee({ role: 'Admin' });
    const session = await passwordLogin(r, who);
    for (const url of ['/api/employee/statistics/', '/api/employee/employees/', '/api/employee/audit-log/']) {
      const res = await call(r, session, 'GET', url);
      expect([res.statusCode, res.json().error.code]).toEqual([403, 'SECOND_FACTOR_ENROLMENT_REQUIRED']);
    }
    expect((await call(r, session, 'GET', '/api/employee/employee/')).statusCode).toBe(200);
    expect((await call(r, session, 'GET', `${OWN}/`)).json().data).toMatchObject({ required: true, totp: false });
    // Kept on the Account screen, they see where they are signed in too.
    expect((await call(r, session, 'GET', '/api/employee/sessions/')).statusCode).toBe(200);

    await enrolTotp(r, session);
    expect((await call(r, session, 'GET', '/api/employee/employees/')).statusCode).toBe(200);
    // Enrolling proved the factor: the sensitive actions are open now.
    expect((await call(r, session, 'GET', '/api/employee/statistics/clients/')).statusCode).toBe(200);
  });

  it('leaves a Seller without a second factor to their work', async () => {
    const session = await passwordLogin(r, DEMO.seller);
    expect((await call(r, session, 'GET', '/api/employee/statistics/')).statusCode).toBe(200);
  });
});

describe("the hour's sign-ins of an employee with a second factor", () => {
  it('are not used up by the password alone: it starts no session, and the owner still signs in', { timeout: 120_000 }, async () => {
    const who = await t.newEmployee({ role: 'Seller' });
    await enrolTotp(t, await passwordLogin(t, who));
    for (let i = 0; i <= SIGN_INS_PER_ACCOUNT_HOUR; i++) {
      const step = await t.app.inject({ method: 'POST', url: LOGIN, payload: who });
      expect([step.statusCode, step.json().data]).toEqual([200, 'SecondFactor']);
    }
  });
});

describe('a passkey sign-in without the password', () => {
  const PASSKEY_OPTIONS = '/api/public/authentication/passkey/options';
  const PASSKEY_SIGN_IN = '/api/public/authentication/passkey';
  const challengeRows = async () => Number((await t.db.query<{ n: string }>('SELECT count(*) AS n FROM sign_in_challenges'))[0]!.n);

  it('stores nothing for a challenge asked for, from any number of addresses: the browser keeps it, sealed', async () => {
    const before = await challengeRows();
    for (let i = 0; i < 20; i++) {
      const asked = await t.app.inject({ method: 'POST', url: PASSKEY_OPTIONS, remoteAddress: `2001:db8:77:${i}::1` });
      expect(asked.statusCode, asked.body).toBe(200);
      // The challenge is not readable from the cookie: it is sealed under the shop's secret.
      expect(cookieHeader(asked)).not.toContain(asked.json().data.challenge);
    }
    expect(await challengeRows()).toBe(before);
  });

  it('takes 60 answers an hour from an address: a wrong answer spends no challenge, so the answers themselves are limited', async () => {
    const answer = () =>
      t.app.inject({
        method: 'POST',
        url: PASSKEY_SIGN_IN,
        remoteAddress: '2001:db8:99::1',
        payload: {
          passkey: {
            id: 'x',
            rawId: 'x',
            type: 'public-key',
            clientExtensionResults: {},
            response: { clientDataJSON: 'e30', authenticatorData: 'AAAA', signature: 'AAAA' },
          },
        },
      });
    for (let i = 0; i < 60; i++) expect((await answer()).statusCode).toBe(401);
    expect((await answer()).statusCode).toBe(429);
  });

  /** A Seller with a passkey of the test's (registered with its signature counter at 0). */
  async function sellerWithPasskey() {
    const who = await t.newEmployee({ role: 'Seller' });
    const session = await passwordLogin(t, who);
    const passkey = softwarePasskey(INJECTED_ORIGIN);
    const creation = await call(t, session, 'POST', `${OWN}/passkeys/options`, { currentPassword: who.password });
    expect(creation.statusCode, creation.body).toBe(200);
    const registered = await call(t, session, 'POST', `${OWN}/passkeys`, {
      name: 'Laptop',
      response: passkey.registration(creation.json().data),
    });
    expect(registered.statusCode, registered.body).toBe(200);
    return { who, passkey };
  }

  it("signs in with an employee's passkey once for each challenge: the same answer sent again is refused, as is a challenge past its end or not the shop's", async () => {
    const { who, passkey } = await sellerWithPasskey();

    const options = await t.app.inject({ method: 'POST', url: PASSKEY_OPTIONS });
    const answer = { passkey: passkey.assertion(options.json().data, `employee:${who.id}`) };
    const signIn = (cookie: string) => t.app.inject({ method: 'POST', url: PASSKEY_SIGN_IN, headers: { cookie }, payload: answer });
    const rowsBefore = await challengeRows();
    const signedIn = await signIn(cookieHeader(options));
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json().data).toBe('Seller');
    // The spent challenge, kept until it would have ended.
    expect(await challengeRows()).toBe(rowsBefore + 1);

    const replayed = await signIn(cookieHeader(options));
    expect([replayed.statusCode, replayed.json().error.code]).toEqual([401, 'SECOND_FACTOR_EXPIRED']);

    // A token sealed under another JWT_SECRET (or made up) names no challenge of the shop's.
    const [name] = cookieHeader(options).split('=');
    const forged = secretBox('another-secret-of-at-least-thirty-two-chars', 'passkey-sign-in-v1').seal(
      JSON.stringify({ challenge: options.json().data.challenge, expiresAt: Date.now() + 60_000 }),
    );
    const refused = await signIn(`${name}=${forged}`);
    expect([refused.statusCode, refused.json().error.code]).toEqual([401, 'SECOND_FACTOR_EXPIRED']);

    // Past its five minutes, a challenge never answered is refused too.
    const later = await t.app.inject({ method: 'POST', url: PASSKEY_OPTIONS });
    fixClock(Date.now() + 5 * 60_000 + 1000);
    const late = await t.app.inject({
      method: 'POST',
      url: PASSKEY_SIGN_IN,
      headers: { cookie: cookieHeader(later) },
      payload: { passkey: passkey.assertion(later.json().data, `employee:${who.id}`) },
    });
    expect([late.statusCode, late.json().error.code]).toEqual([401, 'SECOND_FACTOR_EXPIRED']);
  });

  it("a passkey's signature counter only goes up: of two answers checked at once, the one whose counter is no longer above the stored one is refused", async () => {
    const { who, passkey } = await sellerWithPasskey();
    /**
     * A sign-in with an answer carrying `counter`, to a challenge of its own; from an address of this
     * test's, so that its refusal is a security event of its own, not one the next test's joins.
     */
    const signInCounting = async (counter: number) => {
      const options = await t.app.inject({ method: 'POST', url: PASSKEY_OPTIONS });
      return t.app.inject({
        method: 'POST',
        url: PASSKEY_SIGN_IN,
        remoteAddress: '2001:db8:c0::1',
        headers: { cookie: cookieHeader(options) },
        payload: { passkey: passkey.assertion(options.json().data, `employee:${who.id}`, counter) },
      });
    };
    const storedCounter = async () =>
      (await t.db.query<{ counter: string }>('SELECT counter::text FROM employee_passkeys WHERE employee_id = $1', [who.id]))[0]!.counter;
    expect((await signInCounting(5)).statusCode).toBe(200);
    expect(await storedCounter()).toBe('5');

    // Both answers are checked against the stored 5, then wait to record their use: 7 first, then 6
    // (a clone's, or one held back and replayed), as a lock's queue lets them through.
    const holder = new pg.Client({ connectionString: t.db.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM employee_passkeys WHERE employee_id = $1 FOR UPDATE', [who.id]);
      const higher = signInCounting(7);
      await untilStatementsWaitOnLocks(t.db, 1);
      const lower = signInCounting(6);
      await untilStatementsWaitOnLocks(t.db, 2);
      await holder.query('COMMIT');
      expect((await higher).statusCode).toBe(200);
      const refused = await lower;
      expect([refused.statusCode, refused.json().error.code]).toEqual([400, 'WRONG_SECOND_FACTOR']);
    } finally {
      await holder.end();
    }
    expect(await storedCounter()).toBe('7');
  });

  it("a stranger's answer naming an employee's passkey is refused, and logged as nobody's attempt on that employee", async () => {
    const target = await t.newEmployee({ role: 'Seller' });
    const credentialId = `forged-${target.id}`;
    await storePasskey(target.id, credentialId);
    const options = await t.app.inject({ method: 'POST', url: '/api/public/authentication/passkey/options' });
    expect(options.statusCode, options.body).toBe(200);
    const answer = await t.app.inject({
      method: 'POST',
      url: '/api/public/authentication/passkey',
      headers: { cookie: cookieHeader(options) },
      payload: {
        passkey: {
          id: credentialId,
          rawId: credentialId,
          type: 'public-key',
          clientExtensionResults: {},
          response: { clientDataJSON: 'e30', authenticatorData: 'AAAA', signature: 'AAAA' },
        },
      },
    });
    expect(answer.statusCode, answer.body).toBe(400);
    expect(answer.json().error.code).toBe('WRONG_SECOND_FACTOR');
    const [event] = await t.db.query<{ actor: string | null; entity: string | null; entity_id: string | null }>(
      "SELECT actor, entity, entity_id FROM security_events WHERE type = 'second_factor_failed' ORDER BY id DESC LIMIT 1",
    );
    expect(event).toEqual({ actor: null, entity: 'Employee', entity_id: String(target.id) });
  });
});

describe("a change to an employee's factors", () => {
  it('ends their other sessions, not the one that made it: a factor added, codes renewed, a factor removed; a step-up ends none', async () => {
    const who = await t.newEmployee({ role: 'Seller' });
    const mine = await passwordLogin(t, who);
    const stolen = await passwordLogin(t, who);
    const me = (cookie: string) => call(t, cookie, 'GET', '/api/employee/employee/');
    expect((await me(stolen)).statusCode).toBe(200);

    const start = Date.now();
    fixClock(start);
    const { secret } = await enrolTotp(t, mine);
    expect((await me(stolen)).statusCode).toBe(401);
    expect((await me(mine)).statusCode).toBe(200);

    // Another session, through the second factor, then new codes from the first.
    const attempt = await passwordStep(t, who);
    const other = cookieHeader(await secondStep(t, attempt.cookie, totpCode(secret, start + 30_000)));
    expect((await me(other)).statusCode).toBe(200);
    // A step-up changes no factor: the other session stays.
    fixClock(start + 30_000);
    expect((await call(t, mine, 'POST', `${OWN}/step-up`, { code: totpCode(secret, start + 60_000) })).statusCode).toBe(200);
    expect((await me(other)).statusCode).toBe(200);
    expect((await call(t, mine, 'POST', `${OWN}/recovery-codes`)).statusCode).toBe(200);
    expect((await me(other)).statusCode).toBe(401);

    fixClock(start + 90_000);
    const again = cookieHeader(await secondStep(t, (await passwordStep(t, who)).cookie, totpCode(secret, start + 90_000)));
    expect((await me(again)).statusCode).toBe(200);
    expect((await call(t, mine, 'DELETE', `${OWN}/totp`)).statusCode).toBe(200);
    expect((await me(again)).statusCode).toBe(401);
    expect((await me(mine)).statusCode).toBe(200);
  });

  it('an app or new codes whose other sessions cannot be ended are not kept: nothing changes until a retry does both', async () => {
    const who = await t.newEmployee({ role: 'Seller' });
    const mine = await passwordLogin(t, who);
    const stolen = await passwordLogin(t, who);
    const me = (cookie: string) => call(t, cookie, 'GET', '/api/employee/employee/');
    const started = await call(t, mine, 'POST', `${OWN}/totp`, { currentPassword: who.password });
    const { secret } = started.json().data as { secret: string };
    const confirm = () => call(t, mine, 'POST', `${OWN}/totp/confirm`, { code: totpCode(secret) });
    await whileEmployeeSessionsCannotEnd(who.id, async () => {
      expect((await confirm()).statusCode).toBeGreaterThanOrEqual(500);
    });
    // No app and no codes: the employee signs in with the password alone, and the other session is live.
    const [app] = await t.db.query<{ secret: string | null }>('SELECT secret FROM employee_totp WHERE employee_id = $1', [who.id]);
    expect(app!.secret).toBeNull();
    expect(await t.db.query('SELECT 1 FROM employee_recovery_codes WHERE employee_id = $1', [who.id])).toHaveLength(0);
    expect((await me(stolen)).statusCode).toBe(200);
    const confirmed = await confirm();
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const [firstCode] = confirmed.json().data.recoveryCodes as string[];
    expect((await me(stolen)).statusCode).toBe(401);

    const thief = await secondStep(t, (await passwordStep(t, who)).cookie, firstCode!);
    expect(thief.statusCode).toBe(200);
    const renew = () => call(t, mine, 'POST', `${OWN}/recovery-codes`);
    await whileEmployeeSessionsCannotEnd(who.id, async () => {
      expect((await renew()).statusCode).toBeGreaterThanOrEqual(500);
    });
    // The old codes still stand, and so does the session they opened.
    expect((await call(t, mine, 'GET', `${OWN}/`)).json().data.recoveryCodesLeft).toBe(9);
    expect((await me(cookieHeader(thief))).statusCode).toBe(200);
    expect((await renew()).statusCode).toBe(200);
    expect((await call(t, mine, 'GET', `${OWN}/`)).json().data.recoveryCodesLeft).toBe(10);
    expect((await me(cookieHeader(thief))).statusCode).toBe(401);
  });

  it('a passkey whose other sessions cannot be ended is not kept, nor its codes: a retry registers it and ends them', async () => {
    const who = await t.newEmployee({ role: 'Seller' });
    const mine = await passwordLogin(t, who);
    const stolen = await passwordLogin(t, who);
    const me = (cookie: string) => call(t, cookie, 'GET', '/api/employee/employee/');
    /** The browser's part: the options for this employee, and a new passkey's answer to them. */
    const register = async () => {
      const options = await call(t, mine, 'POST', `${OWN}/passkeys/options`, { currentPassword: who.password });
      expect(options.statusCode, options.body).toBe(200);
      const response = registerSoftwarePasskey(options.json().data, INJECTED_ORIGIN);
      return call(t, mine, 'POST', `${OWN}/passkeys`, { name: 'Laptop', response });
    };
    await whileEmployeeSessionsCannotEnd(who.id, async () => {
      expect((await register()).statusCode).toBeGreaterThanOrEqual(500);
    });
    expect(await t.db.query('SELECT 1 FROM employee_passkeys WHERE employee_id = $1', [who.id])).toHaveLength(0);
    expect(await t.db.query('SELECT 1 FROM employee_recovery_codes WHERE employee_id = $1', [who.id])).toHaveLength(0);
    expect((await me(stolen)).statusCode).toBe(200);

    const registered = await register();
    expect(registered.statusCode, registered.body).toBe(200);
    expect(registered.json().data.recoveryCodes).toHaveLength(10);
    expect(await t.db.query('SELECT 1 FROM employee_passkeys WHERE employee_id = $1', [who.id])).toHaveLength(1);
    expect((await me(stolen)).statusCode).toBe(401);
    expect((await me(mine)).statusCode).toBe(200);
  });
});

describe('a passkey being registered', () => {
  it("keeps its challenge through an answer that is no passkey's: another session cannot cancel the owner's registration", async () => {
    const who = await t.newEmployee({ role: 'Seller' });
    const mine = await passwordLogin(t, who);
    const stolen = await passwordLogin(t, who);
    const options = await call(t, mine, 'POST', `${OWN}/passkeys/options`, { currentPassword: who.password });
    expect(options.statusCode, options.body).toBe(200);
    const response = registerSoftwarePasskey(options.json().data, INJECTED_ORIGIN);
    const junk = { ...response, response: { ...response.response, clientDataJSON: Buffer.from('{}').toString('base64url') } };
    expect((await call(t, stolen, 'POST', `${OWN}/passkeys`, { name: 'Mine now', response: junk })).statusCode).toBe(400);
    const registered = await call(t, mine, 'POST', `${OWN}/passkeys`, { name: 'Laptop', response });
    expect(registered.statusCode, registered.body).toBe(200);
    // Once: the same answer again finds it spent.
    expect((await call(t, mine, 'POST', `${OWN}/passkeys`, { name: 'Laptop', response })).statusCode).toBe(400);
  });
});

describe('staff sign-ins in the audit log', () => {
  it('records each employee session begun, with how they proved who they are and from where; a client sign-in is not one', async () => {
    const who = await t.newEmployee({ role: 'Seller' });
    const signIns = async () =>
      (
        await t.db.query<{ method: string; actor: string; address: string | null }>(
          `SELECT details->>'method' AS method, actor, address FROM security_events
           WHERE type = 'employee_signed_in' AND entity = 'Employee' AND entity_id = $1 ORDER BY id`,
          [String(who.id)],
        )
      ).map(({ method, actor, address }) => ({ method, actor, address }));
    const mine = await passwordLogin(t, who);
    expect(await signIns()).toEqual([{ method: 'password', actor: `employee:${who.id}`, address: expect.any(String) }]);

    const start = Date.now();
    fixClock(start);
    const { secret } = await enrolTotp(t, mine);
    const attempt = await passwordStep(t, who);
    // The password alone, with a factor to come, begins no session: only the second step does.
    expect((await signIns()).map((s) => s.method)).toEqual(['password']);
    expect((await secondStep(t, attempt.cookie, totpCode(secret, start + 30_000))).statusCode).toBe(200);
    expect((await signIns()).map((s) => s.method)).toEqual(['password', 'second_factor']);

    const before = await t.db.query("SELECT 1 FROM security_events WHERE type = 'employee_signed_in'");
    await t.login(DEMO.client);
    expect(await t.db.query("SELECT 1 FROM security_events WHERE type = 'employee_signed_in'")).toHaveLength(before.length);
  });
});

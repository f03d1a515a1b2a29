import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { deviceOf } from '../src/modules/sessions/device.ts';
import { SESSION_ENDINGS_PER_HOUR } from '../src/routes/own-sessions.ts';
import { cookieHeader, createTestApp, DEMO, type TestApp } from './helpers.ts';

const FIREFOX_ON_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const CHROME_ON_ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const EDGE_ON_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0';
const SAFARI_ON_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

describe('what a session was signed in from', () => {
  it.each([
    [FIREFOX_ON_LINUX, 'Firefox on Linux'],
    [CHROME_ON_ANDROID, 'Chrome on Android'],
    [EDGE_ON_WINDOWS, 'Edge on Windows'],
    [SAFARI_ON_IPHONE, 'Safari on iOS'],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
      'Safari on macOS',
    ],
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36', 'Chrome on Linux'],
    ['curl/8.5.0', null],
    [undefined, null],
  ])('names %s as %s', (header, device) => {
    expect(deviceOf(header)).toBe(device);
  });
});

describe('a client lists and ends their sessions', () => {
  const signIn = async (account: string, userAgent: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/public/authentication/login',
      headers: { 'user-agent': userAgent },
      payload: { account, password: DEMO.client.password },
    });
    expect(res.statusCode, res.body).toBe(200);
    return cookieHeader(res);
  };
  const list = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/client/manage/sessions/', headers: { cookie } });
  const end = (cookie: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/client/manage/sessions/end', headers: { cookie }, payload });
  const stillSignedIn = async (cookie: string) =>
    (await t.app.inject({ method: 'GET', url: '/api/client/manage', headers: { cookie } })).statusCode === 200;

  it('lists only their own live sessions, this one marked, with what each was signed in from', async () => {
    const { account } = await t.newClient();
    const laptop = await signIn(account, FIREFOX_ON_LINUX);
    const phone = await signIn(account, CHROME_ON_ANDROID);
    const signedOut = await signIn(account, EDGE_ON_WINDOWS);
    const signOut = await t.app.inject({ method: 'DELETE', url: '/api/public/authentication/cookies/', headers: { cookie: signedOut } });
    expect(signOut.statusCode).toBe(200);
    const away = await signIn(account, SAFARI_ON_IPHONE);
    // Idle past the client's week: no longer a session, though its row is kept until the purge.
    await t.db.query(
      `UPDATE session_families SET last_active_at = now() - interval '8 days'
       WHERE device = 'Safari on iOS' AND subject_id = (SELECT id FROM clients WHERE account = $1)`,
      [account],
    );
    expect(await stillSignedIn(away)).toBe(false);
    await t.newClient(); // another account's sessions are not listed

    const res = await list(laptop);
    expect(res.statusCode, res.body).toBe(200);
    const sessions = res.json().data as { id: string; device: string | null; current: boolean; startedAt: string }[];
    // newClient's own sign-in (no User-Agent), the laptop and the phone; those signed out and idle are not.
    expect(sessions).toHaveLength(3);
    expect(sessions.filter((s) => s.current).map((s) => s.device)).toEqual(['Firefox on Linux']);
    expect(sessions.map((s) => s.device).sort()).toEqual(['Chrome on Android', 'Firefox on Linux', null].sort());
    expect((await list(phone)).json().data.find((s: { current: boolean }) => s.current).device).toBe('Chrome on Android');
  });

  it('ends another session only with the right password, never the one asking nor another account’s', async () => {
    const { account, cookie: first } = await t.newClient();
    const laptop = await signIn(account, FIREFOX_ON_LINUX);
    const phone = await signIn(account, CHROME_ON_ANDROID);
    const stranger = await t.newClient();
    const [strangers] = (await list(stranger.cookie)).json().data as { id: string }[];
    const sessions = (await list(laptop)).json().data as { id: string; device: string | null; current: boolean }[];
    const phoneId = sessions.find((s) => s.device === 'Chrome on Android')!.id;
    const laptopId = sessions.find((s) => s.current)!.id;

    const missing = await end(laptop, { sessionIds: [phoneId] });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toMatchObject({ code: 'PASSWORD_REQUIRED', message: 'Enter your password to end sessions.' });
    const wrong = await end(laptop, { sessionIds: [phoneId], password: 'not-my-password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.code).toBe('WRONG_PASSWORD');
    expect(await stillSignedIn(phone)).toBe(true);

    const ended = await end(laptop, { sessionIds: [phoneId, laptopId, strangers!.id, randomUUID()], password: DEMO.client.password });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json().data).toEqual({ ended: 1 });
    // The right password marks this browser as one that signed in to the account (the sign-in throttle's).
    expect(ended.cookies.map((c) => c.name)).toContain('bs_device');
    expect(await stillSignedIn(phone)).toBe(false);
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/public/authentication/refresh-tokens/Client',
      headers: { cookie: phone },
    });
    expect(refreshed.statusCode).toBe(401);
    expect(await stillSignedIn(laptop)).toBe(true);
    expect(await stillSignedIn(first)).toBe(true);
    expect(await stillSignedIn(stranger.cookie)).toBe(true);
    expect(((await list(laptop)).json().data as { id: string }[]).map((s) => s.id)).not.toContain(phoneId);

    const [event] = await t.db.query<{ actor: string; details: { ended: number } }>(
      "SELECT actor, details FROM security_events WHERE type = 'sessions_ended' AND actor = $1",
      [`client:${(await t.db.query<{ id: number }>('SELECT id FROM clients WHERE account = $1', [account]))[0]!.id}`],
    );
    expect(event).toMatchObject({ details: { ended: 1 } });
  });

  it('counts a wrong password as a failed sign-in of the account, under the sign-in throttle', async () => {
    const { account, cookie } = await t.newClient();
    expect((await end(cookie, { sessionIds: [randomUUID()], password: 'not-my-password' })).statusCode).toBe(400);
    const failed = await t.db.query("SELECT 1 FROM security_events WHERE type = 'password_check_failed' AND actor = $1", [account]);
    expect(failed).toHaveLength(1);
  });

  it('passes over a session past its lifetime, which it no longer lists, and ends none', async () => {
    const { account, cookie } = await t.newClient();
    await signIn(account, CHROME_ON_ANDROID);
    const [old] = ((await list(cookie)).json().data as { id: string; device: string | null }[]).filter((s) => s.device);
    // Signed in 31 days ago, used a minute ago: past the client's 30 days, though never idle.
    await t.db.query("UPDATE session_families SET started_at = now() - interval '31 days' WHERE id = $1", [old!.id]);
    expect(((await list(cookie)).json().data as { id: string }[]).map((s) => s.id)).not.toContain(old!.id);
    const ended = await end(cookie, { sessionIds: [old!.id], password: DEMO.client.password });
    expect(ended.json().data).toEqual({ ended: 0 });
    expect(await t.db.query('SELECT 1 FROM session_families WHERE id = $1 AND revoked_at IS NOT NULL', [old!.id])).toHaveLength(0);
  });

  it(`counts ${SESSION_ENDINGS_PER_HOUR} asks an hour per session: a taken session cannot spend its owner's`, async () => {
    const { account, cookie: taken } = await t.newClient();
    for (let i = 0; i < SESSION_ENDINGS_PER_HOUR; i++) {
      expect((await end(taken, { sessionIds: [randomUUID()], password: DEMO.client.password })).statusCode).toBe(200);
    }
    const refused = await end(taken, { sessionIds: [randomUUID()], password: DEMO.client.password });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // The owner, in a browser of their own, still ends the taken one.
    const owner = await signIn(account, FIREFOX_ON_LINUX);
    const takenId = ((await list(owner)).json().data as { id: string; current: boolean; device: string | null }[]).find(
      (s) => !s.current && s.device === null,
    )!.id;
    expect((await end(owner, { sessionIds: [takenId], password: DEMO.client.password })).json().data).toEqual({ ended: 1 });
    expect(await stillSignedIn(taken)).toBe(false);
  });

  it('refuses ids as no list gives them (none, more than an account keeps, not a uuid, in capitals) before any password is checked', async () => {
    const { account, cookie } = await t.newClient();
    const [mine] = (await list(cookie)).json().data as { id: string }[];
    for (const sessionIds of [
      [],
      Array.from({ length: 51 }, () => randomUUID()),
      ['not-a-session'],
      [`urn:uuid:${randomUUID()}`],
      // This session's own id in capitals: the same uuid to the database, which would have ended it.
      [mine!.id.toUpperCase()],
    ]) {
      expect((await end(cookie, { sessionIds, password: 'not-my-password' })).statusCode).toBe(400);
    }
    expect(await stillSignedIn(cookie)).toBe(true);
    expect(await t.db.query("SELECT 1 FROM security_events WHERE type = 'password_check_failed' AND actor = $1", [account])).toHaveLength(
      0,
    );
  });
});

describe('an employee lists and ends their sessions', () => {
  it("neither lists nor ends a client's sessions, though the client's id is the employee's", async () => {
    const client = await t.newClient();
    // An employee row with the client's id: the two audiences' ids are counted apart and meet.
    const email = `e-${randomUUID()}@bookshop.test`;
    await t.db.query(
      `INSERT INTO employees (id, first_name, last_name, gender, birth_date, email, phone_number, address, password_hash, role)
       SELECT $1, 'Same', 'Id', 'Female', '1990-01-01', $2, '0555000000', '1 Main Street', password_hash, 'Seller'
       FROM employees WHERE email = $3`,
      [client.id, email, DEMO.admin.account],
    );
    // Past it, so the employees made later in this database take ids of their own.
    await t.db.query("SELECT setval(pg_get_serial_sequence('employees', 'id'), (SELECT max(id) FROM employees))");
    const employee = cookieHeader(
      await t.app.inject({
        method: 'POST',
        url: '/api/public/authentication/login',
        payload: { account: email, password: DEMO.admin.password },
      }),
    );
    const clientSessions = (
      await t.app.inject({ method: 'GET', url: '/api/client/manage/sessions/', headers: { cookie: client.cookie } })
    ).json().data as { id: string }[];
    const employeeSessions = (await t.app.inject({ method: 'GET', url: '/api/employee/sessions/', headers: { cookie: employee } })).json()
      .data as { id: string }[];
    expect(employeeSessions).toHaveLength(1);
    expect(employeeSessions.map((s) => s.id)).not.toContain(clientSessions[0]!.id);
    const ended = await t.app.inject({
      method: 'POST',
      url: '/api/employee/sessions/end',
      headers: { cookie: employee },
      payload: { sessionIds: clientSessions.map((s) => s.id), password: DEMO.admin.password },
    });
    expect(ended.json().data).toEqual({ ended: 0 });
    expect((await t.app.inject({ method: 'GET', url: '/api/client/manage', headers: { cookie: client.cookie } })).statusCode).toBe(200);
  });

  it('ends the other back-office session', async () => {
    const seller = await t.newEmployee();
    const signIn = async (userAgent: string) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/public/authentication/login',
        headers: { 'user-agent': userAgent },
        payload: { account: seller.account, password: seller.password },
      });
      return cookieHeader(res);
    };
    const office = await signIn(EDGE_ON_WINDOWS);
    const home = await signIn(SAFARI_ON_IPHONE);
    const listed = await t.app.inject({ method: 'GET', url: '/api/employee/sessions/', headers: { cookie: office } });
    expect(listed.statusCode, listed.body).toBe(200);
    const sessions = listed.json().data as { id: string; device: string; current: boolean }[];
    expect(sessions.map((s) => [s.device, s.current])).toEqual([
      ['Safari on iOS', false],
      ['Edge on Windows', true],
    ]);
    const ended = await t.app.inject({
      method: 'POST',
      url: '/api/employee/sessions/end',
      headers: { cookie: office },
      payload: { sessionIds: [sessions[0]!.id], password: seller.password },
    });
    expect(ended.json().data).toEqual({ ended: 1 });
    expect((await t.app.inject({ method: 'GET', url: '/api/employee/employee/', headers: { cookie: home } })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/employee/employee/', headers: { cookie: office } })).statusCode).toBe(200);
  });
});

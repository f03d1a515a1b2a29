import jwt from 'jsonwebtoken';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADDRESSES_PER_ACTOR, CROWDED_PER_ACTOR_AFTER, EVENT_WINDOW_MINUTES } from '../src/modules/security/security-events.ts';
import { REFRESHES_PER_SESSION_HOUR } from '../src/modules/sessions/session-service.ts';
import { PASSWORD_CHANGES_PER_DAY } from '../src/routes/own-password.ts';
import {
  cookieHeader,
  createProviderAccount,
  createTestApp,
  DEMO,
  type TestApp,
  whileSessionsCannotBeRenewed,
  whileSessionsCannotEnd,
} from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ throttle: { windowMs: 60_000, perPair: 3, perAccount: 10, perAddress: 50 } });
});
const login = (account: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/public/authentication/login', payload: { account, password } });

describe('login', () => {
  it.each([
    [DEMO.client, 'Client'],
    [DEMO.admin, 'Admin'],
    [DEMO.seller, 'Seller'],
  ])('signs in %o and answers the user type', async (who, type) => {
    const res = await login(who.account.toUpperCase(), who.password);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toBe(type);
    const cookies = res.cookies.filter((c) => c.value);
    // The session's two, and the browser's mark as one that signed in to the account (the login throttle's).
    const audience = type === 'Client' ? 'client' : 'employee';
    expect(cookies.map((c) => c.name).sort()).toEqual([`bs_${audience}_at`, `bs_${audience}_rt`, 'bs_device'].sort());
    for (const c of cookies) expect(c).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
  });

  it('answers the same 401 for a wrong password and an unknown account', async () => {
    const wrong = await login('seller@bookshop.test', 'nope-nope');
    const unknown = await login('nobody@bookshop.test', 'nope-nope');
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json().error.message).toBe('Invalid account or password.');
    }
  });

  it('throttles repeated failures for an account with a 429 and Retry-After', async () => {
    for (let i = 0; i < 3; i++) await login('client2@example.com', 'wrong-password');
    const res = await login('client2@example.com', 'wrong-password');
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.json().error.message).toMatch(/Too many/);
  });
});

describe('sessions', () => {
  const me = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/client/manage', headers: { cookie } });
  const refresh = (cookie: string, type = 'Client') =>
    t.app.inject({ method: 'POST', url: `/api/public/authentication/refresh-tokens/${type}`, headers: { cookie } });

  it('refuses anonymous, tampered, expired and alg-none tokens with 401', async () => {
    expect((await me('')).statusCode).toBe(401);
    const cookie = await t.login(DEMO.client);
    const access = cookie.match(/bs_client_at=([^;]+)/)![1]!;
    const [h, p] = access.split('.');
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p!, 'base64url').toString()), sub: '2' })).toString('base64url')}.${access.split('.')[2]}`;
    const claims = jwt.decode(access) as jwt.JwtPayload;
    const none = jwt.sign({ ...claims }, '', { algorithm: 'none' });
    const expired = jwt.sign(
      { fam: claims.fam, sub: claims.sub, aud: 'client', exp: Math.floor(Date.now() / 1000) - 10 },
      t.config.jwtSecret,
    );
    const employeeOnClient = jwt.sign({ fam: claims.fam }, t.config.jwtSecret, {
      subject: claims.sub,
      audience: 'employee',
      expiresIn: 60,
    });
    for (const token of [tampered, none, expired, employeeOnClient]) {
      expect((await me(`bs_client_at=${token}`)).statusCode).toBe(401);
    }
    expect((await me(cookie)).statusCode).toBe(200);
  });

  it('rotates the refresh token, and reuse of a spent one revokes the whole session', async () => {
    const first = await t.login(DEMO.client);
    const r1 = await refresh(first);
    expect(r1.statusCode).toBe(200);
    expect(r1.json().data).toBe('Client');
    const second = cookieHeader(r1, first);
    expect(second).not.toBe(first);
    // The stolen first refresh token is presented again, after the reuse interval: the family dies,
    // the rotated session too.
    await t.db.query("UPDATE refresh_tokens SET used_at = now() - interval '31 seconds' WHERE used_at IS NOT NULL");
    expect((await refresh(first)).statusCode).toBe(401);
    expect((await refresh(second)).statusCode).toBe(401);
    expect((await me(second)).statusCode).toBe(401);
  });

  it("a refresh whose successor cannot be stored spends nothing: the browser's retry renews the session, and it lives on", async () => {
    const client = await t.newClient();
    await t.db.query(`
      CREATE FUNCTION refuse_successor() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'the successor could not be stored'; END $$;
      CREATE TRIGGER refuse_successor BEFORE INSERT ON refresh_tokens FOR EACH ROW EXECUTE FUNCTION refuse_successor()`);
    try {
      const failed = await refresh(client.cookie);
      expect(failed.statusCode).toBeGreaterThanOrEqual(500);
      // The browser keeps its cookies for that retry: a refresh that could not be made clears nothing.
      expect(failed.headers['set-cookie']).toBeUndefined();
    } finally {
      await t.db.query('DROP TRIGGER refuse_successor ON refresh_tokens; DROP FUNCTION refuse_successor()');
    }
    const retried = await refresh(client.cookie);
    expect(retried.statusCode).toBe(200);
    const renewed = cookieHeader(retried, client.cookie);
    // The next refresh finds the successor it was given: the session goes on.
    expect((await refresh(renewed)).statusCode).toBe(200);
  });

  it(`refuses a loop of refreshes of one session past ${REFRESHES_PER_SESSION_HOUR} an hour with 429, keeping the session and its cookies; a spent token still tells a theft`, async () => {
    const looping = await t.newClient();
    const first = await refresh(looping.cookie);
    expect(first.statusCode).toBe(200);
    const cookie = cookieHeader(first, looping.cookie);
    // The session's count, shared by every instance, as a loop would have left it.
    const counted = await t.db.query(
      `UPDATE throttle_counters SET hits = $1
       WHERE key = 'refresh:' || (SELECT family_id FROM refresh_tokens WHERE audience = 'client' AND subject_id = $2 LIMIT 1) RETURNING key`,
      [REFRESHES_PER_SESSION_HOUR, looping.id],
    );
    expect(counted).toHaveLength(1);
    const refused = await refresh(cookie);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json().error.message).toMatch(/^Too many session refreshes\. Please try again in/);
    expect(refused.headers['set-cookie']).toBeUndefined();
    expect((await me(cookie)).statusCode).toBe(200);
    expect(await t.db.query('SELECT 1 FROM refresh_tokens WHERE audience = $1 AND subject_id = $2', ['client', looping.id])).toHaveLength(
      2,
    );
    // The first token, spent, presented again past the reuse interval is a theft, not one more refresh: the session ends.
    await t.db.query("UPDATE refresh_tokens SET used_at = now() - interval '31 seconds' WHERE subject_id = $1 AND used_at IS NOT NULL", [
      looping.id,
    ]);
    expect((await refresh(looping.cookie)).statusCode).toBe(401);
    expect((await me(cookie)).statusCode).toBe(401);
    expect((await refresh(await t.login(DEMO.client))).statusCode).toBe(200);
  });

  it('refreshes an employee session and answers its role', async () => {
    const cookie = await t.login(DEMO.seller);
    const res = await refresh(cookie, 'Seller');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toBe('Seller');
  });

  it('signs out: the session is revoked and its cookies cleared', async () => {
    const cookie = await t.login(DEMO.client);
    const out = await t.app.inject({ method: 'DELETE', url: '/api/public/authentication/cookies/', headers: { cookie } });
    expect(out.statusCode).toBe(200);
    expect(out.cookies.every((c) => c.value === '')).toBe(true);
    expect((await me(cookie)).statusCode).toBe(401);
    expect((await refresh(cookie)).statusCode).toBe(401);
  });

  it('refuses a state-changing call from a foreign Origin', async () => {
    expect((await t.loginFrom('https://evil.example')).statusCode).toBe(403);
  });
});

describe('profile and password', () => {
  it('reads and updates the profile with the spec rules', async () => {
    const cookie = await t.login(DEMO.client);
    const get = await t.app.inject({ method: 'GET', url: '/api/client/manage', headers: { cookie } });
    expect(get.json().data).toEqual({ firstName: 'Demo', lastName: 'Client', phoneNumber: '0555123456', account: 'client@bookshop.test' });
    const patch = (payload: object) => t.app.inject({ method: 'PATCH', url: '/api/client/manage', headers: { cookie }, payload });
    expect((await patch({ firstName: '', lastName: 'X', phoneNumber: '0555123456' })).json().error.message).toBe(
      'All fields are required.',
    );
    expect((await patch({ firstName: 'A', lastName: 'X', phoneNumber: '0855123456' })).json().error.message).toBe(
      'Phone number must be a valid Algerian number (e.g. 07XXXXXXXX).',
    );
    const ok = await patch({ firstName: 'Dora', lastName: 'Client', phoneNumber: '0777123456' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.firstName).toBe('Dora');
  });

  it("changes the password only with the right current one, ends the other sessions, and renews this one's tokens", async () => {
    await t.db.query(
      "INSERT INTO clients (first_name, last_name, phone_number, account, password_hash) SELECT 'P', 'W', '0555000000', 'pw@example.com', password_hash FROM clients WHERE account = 'client@bookshop.test'",
    );
    const who = { account: 'pw@example.com', password: 'Client123!' };
    const mine = await t.login(who);
    const other = await t.login(who);
    const change = (payload: { oldPassword: string; newPassword: string }) => t.changeClientPassword(mine, payload);
    expect((await change({ oldPassword: '', newPassword: 'x' })).json().error.message).toBe('Please enter both current and new password.');
    expect((await change({ oldPassword: 'wrong-one', newPassword: 'NewPass123!' })).statusCode).toBe(400);
    expect((await change({ oldPassword: 'Client123!', newPassword: 'short' })).json().error.message).toBe(
      'Password must be at least 8 characters long.',
    );
    const changed = await change({ oldPassword: 'Client123!', newPassword: 'NewPass123!' });
    expect(changed.statusCode).toBe(200);
    const manage = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/client/manage', headers: { cookie } });
    expect((await manage(other)).statusCode).toBe(401);
    // This session stays, with new tokens: its cookies of a moment ago (or a copy taken of them) are refused.
    const renewed = cookieHeader(changed, mine);
    expect(renewed).not.toBe(mine);
    expect((await manage(mine)).statusCode).toBe(401);
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/public/authentication/refresh-tokens/Client',
      headers: { cookie: mine },
    });
    expect(refreshed.statusCode).toBe(401);
    // Said so, and the browser's cookies (the change's new ones by now) left alone.
    expect(refreshed.json().error.code).toBe('SESSION_RENEWED');
    expect(refreshed.cookies).toEqual([]);
    expect((await manage(renewed)).statusCode).toBe(200);
    expect((await login('pw@example.com', 'NewPass123!')).statusCode).toBe(200);
  });

  it('a change whose other sessions cannot be ended changes nothing: the old password still signs in, and those sessions end with a retry', async () => {
    const account = 'pw-atomic@example.com';
    await t.db.query(
      "INSERT INTO clients (first_name, last_name, phone_number, account, password_hash) SELECT 'P', 'A', '0555000000', $1, password_hash FROM clients WHERE account = 'client@bookshop.test'",
      [account],
    );
    const who = { account, password: 'Client123!' };
    const mine = await t.login(who);
    const other = await t.login(who);
    const [client] = await t.db.query<{ id: number }>('SELECT id FROM clients WHERE account = $1', [account]);
    const change = () => t.changeClientPassword(mine, { oldPassword: 'Client123!', newPassword: 'NewPass123!' });
    // The sessions' end fails (as an outage between two statements would), for this account only.
    await whileSessionsCannotEnd(t.db, { audience: 'client', id: client!.id }, async () => {
      expect((await change()).statusCode).toBeGreaterThanOrEqual(500);
    });
    expect((await login(account, 'NewPass123!')).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/client/manage', headers: { cookie: other } })).statusCode).toBe(200);
    expect((await change()).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/client/manage', headers: { cookie: other } })).statusCode).toBe(401);
  });

  it("a change whose session's tokens cannot be renewed changes nothing: the old password, this session's cookies and the others stay", async () => {
    const account = 'pw-renewal@example.com';
    await t.db.query(
      "INSERT INTO clients (first_name, last_name, phone_number, account, password_hash) SELECT 'P', 'R', '0555000000', $1, password_hash FROM clients WHERE account = 'client@bookshop.test'",
      [account],
    );
    const mine = await t.login({ account, password: 'Client123!' });
    const other = await t.login({ account, password: 'Client123!' });
    const [client] = await t.db.query<{ id: number }>('SELECT id FROM clients WHERE account = $1', [account]);
    const change = () => t.changeClientPassword(mine, { oldPassword: 'Client123!', newPassword: 'NewPass123!' });
    const manage = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/client/manage', headers: { cookie } });
    await whileSessionsCannotBeRenewed(t.db, { audience: 'client', id: client!.id }, async () => {
      expect((await change()).statusCode).toBeGreaterThanOrEqual(500);
    });
    expect((await login(account, 'NewPass123!')).statusCode).toBe(401);
    expect((await manage(other)).statusCode).toBe(200);
    expect((await manage(mine)).statusCode).toBe(200);
    const changed = await change();
    expect(changed.statusCode).toBe(200);
    expect((await manage(cookieHeader(changed, mine))).statusCode).toBe(200);
    expect((await manage(other)).statusCode).toBe(401);
  });
});

describe("a client's account events in the security log (ASVS 16.3.1)", () => {
  const events = (clientId: number) =>
    t.db.query<{ type: string; actor: string; address: string; count: number; details: unknown }>(
      "SELECT type, actor, address, count, details FROM security_events WHERE entity = 'Client' AND entity_id = $1 ORDER BY id",
      [String(clientId)],
    );

  it('records sign-ins (one row per address and window, with the count) and a password change, from where, never a password', async () => {
    const client = await t.newClient();
    await t.login({ account: client.account, password: DEMO.client.password });
    const changed = await t.changeClientPassword(client.cookie, {
      oldPassword: DEMO.client.password,
      newPassword: 'Another-passphrase-42',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const rows = await events(client.id);
    expect(rows).toEqual([
      { type: 'client_signed_in', actor: `client:${client.id}`, address: expect.any(String), count: 2, details: null },
      { type: 'password_changed', actor: `client:${client.id}`, address: expect.any(String), count: 1, details: null },
    ]);
    expect(JSON.stringify(rows)).not.toContain('Another-passphrase-42');
  });
});

describe('a crowd of client sign-ins in one window', () => {
  const signIn = (account: string, remoteAddress: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/public/authentication/login',
      payload: { account, password: DEMO.client.password },
      remoteAddress,
    });

  /**
   * Waits, when the database's clock is within a minute of a window's end, for the next window: the
   * test's sign-ins and the rows it writes must fall in one (a run that straddled 06:00 put the last
   * sign-in in a new, empty window).
   */
  async function wellInsideAWindow() {
    const [{ into }] = (await t.db.query<{ into: number }>(
      "SELECT extract(epoch FROM localtimestamp - date_bin($1::interval, localtimestamp, timestamp '2000-01-01'))::float8 AS into",
      [`${EVENT_WINDOW_MINUTES} minutes`],
    )) as [{ into: number }];
    const left = EVENT_WINDOW_MINUTES * 60 - into;
    if (left < 60) await new Promise((resolve) => setTimeout(resolve, (left + 1) * 1000));
  }

  it("keeps each account's own row however many others sign in; one account's addresses past 10 share a row of that account's", {
    timeout: 90_000,
  }, async () => {
    await wellInsideAWindow();
    const crowd = await t.newClient();
    for (let i = 1; i <= ADDRESSES_PER_ACTOR + 2; i++) expect((await signIn(crowd.account, `198.51.100.${i}`)).statusCode).toBe(200);
    const rows = await t.db.query<{ address: string; count: number }>(
      "SELECT address, count FROM security_events WHERE type = 'client_signed_in' AND actor = $1 ORDER BY id",
      [`client:${crowd.id}`],
    );
    // Its first sign-in (newClient's own) and 9 more addresses, then the rest under the account's "many" row.
    expect(rows).toHaveLength(ADDRESSES_PER_ACTOR + 1);
    expect(rows.at(-1)).toEqual({ address: '*', count: 3 });

    // A hundred other sign-ins in the window, as a busy shop has: the next account still has its own row.
    await t.db.query(
      `INSERT INTO security_events (type, actor, address, entity, entity_id, bucket)
       SELECT 'client_signed_in', 'client:' || (1000000 + g), '192.0.2.1', 'Client', (1000000 + g)::text,
              date_bin('10 minutes', localtimestamp, timestamp '2000-01-01')
       FROM generate_series(1, 100) g`,
    );
    const next = await t.newClient();
    const [own] = await t.db.query("SELECT actor, address FROM security_events WHERE type = 'client_signed_in' AND entity_id = $1", [
      String(next.id),
    ]);
    expect(own).toEqual({ actor: `client:${next.id}`, address: expect.not.stringMatching(/^\*$/) });

    // Past a thousand rows in the window, an account keeps one row only, its own "many" row: the kind
    // grows with the accounts signing in, not with their addresses.
    await t.db.query(
      `INSERT INTO security_events (type, actor, address, entity, entity_id, bucket)
       SELECT 'client_signed_in', 'client:' || (2000000 + g), '192.0.2.2', 'Client', (2000000 + g)::text,
              date_bin('10 minutes', localtimestamp, timestamp '2000-01-01')
       FROM generate_series(1, $1::int) g`,
      [CROWDED_PER_ACTOR_AFTER],
    );
    const late = await t.newClient();
    expect(
      await t.db.query("SELECT actor, address FROM security_events WHERE type = 'client_signed_in' AND entity_id = $1", [String(late.id)]),
    ).toEqual([{ actor: `client:${late.id}`, address: '*' }]);
  });
});

describe('a loop of password changes', () => {
  /** A client of their own whose password is Client123!, signed in. */
  async function newClient(account: string) {
    await t.db.query(
      "INSERT INTO clients (first_name, last_name, phone_number, account, password_hash) SELECT 'L', 'P', '0555000000', $1, password_hash FROM clients WHERE account = 'client@bookshop.test'",
      [account],
    );
    let cookie = await t.login({ account, password: 'Client123!' });
    return async (oldPassword: string, newPassword: string) => {
      const res = await t.changeClientPassword(cookie, { oldPassword, newPassword });
      // As the browser keeps them: a new password renews this session's cookies.
      cookie = cookieHeader(res, cookie);
      return res;
    };
  }
  const notices = async (account: string) =>
    Number(
      (
        await t.db.query<{ n: string }>(
          "SELECT count(*) AS n FROM mail_outbox m JOIN clients c ON c.id = m.client_id WHERE m.kind = 'password_changed' AND c.account = $1",
          [account],
        )
      )[0]!.n,
    );

  it(`ends at ${PASSWORD_CHANGES_PER_DAY} a day for one account, right or wrong: no notice e-mail beyond them; another client still changes theirs`, async () => {
    const change = await newClient('loop@example.com');
    const passwords = ['Client123!', 'Lantern-Harbor-92'];
    // A right current password clears the login throttle, so only a count of the changes ends the loop.
    for (let i = 0; i < PASSWORD_CHANGES_PER_DAY - 1; i++) {
      const res = await change(passwords[i % 2]!, passwords[(i + 1) % 2]!);
      expect(res.statusCode, res.body).toBe(200);
    }
    expect((await change('wrong-one', 'NewPass123!')).statusCode).toBe(400);
    const refused = await change(passwords[(PASSWORD_CHANGES_PER_DAY - 1) % 2]!, 'NewPass123!');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json().error.message).toMatch(/^Too many requests\. Please try again in \d+ hours?\.$/);
    expect(await notices('loop@example.com')).toBe(PASSWORD_CHANGES_PER_DAY - 1);

    // The count is the account's, not the address's (every client here shares one).
    const other = await newClient('loop-other@example.com');
    expect((await other('Client123!', 'NewPass123!')).statusCode).toBe(200);
  });
});

describe('sign-up through the real identity emulator', () => {
  const createIdentity = async (email: string, verify: boolean) => (await createProviderAccount(email, 'Secret123!', { verify })).idToken;

  const signUp = (token: string, body: object) =>
    t.app.inject({ method: 'POST', url: '/api/public/sign-up/', headers: { authorization: `Bearer ${token}` }, payload: body });
  const body = (email: string, phone = '0661234567') => ({
    firstName: 'Nora',
    lastName: 'Reader',
    phoneNumber: phone,
    account_informations: { account: email, password: 'Secret123!' },
  });

  it('creates a verified client, signs it in, and refuses a duplicate', async () => {
    const email = `nora-${Date.now()}@example.com`;
    const token = await createIdentity(email, true);
    const res = await signUp(token, body(email.toUpperCase()));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toBe('Client');
    const cookie = cookieHeader(res);
    const me = await t.app.inject({ method: 'GET', url: '/api/client/manage', headers: { cookie } });
    expect(me.json().data).toMatchObject({ firstName: 'Nora', account: email });
    const [row] = await t.db.query<{ password_hash: string }>('SELECT password_hash FROM clients WHERE account = $1', [email]);
    expect(row!.password_hash).toMatch(/^bcrypt-sha256:\$2[aby]\$1\d\$/);
    expect((await signUp(token, body(email))).statusCode).toBe(409);
    const [client] = await t.db.query<{ id: number }>('SELECT id FROM clients WHERE account = $1', [email]);
    const signedUp = await t.db.query("SELECT actor FROM security_events WHERE type = 'client_signed_up' AND entity_id = $1", [
      String(client!.id),
    ]);
    expect(signedUp).toEqual([{ actor: `client:${client!.id}` }]);
  });

  /** A sign-up of a new identity whose client is made but whose session fails to start, as a fault or a restart between the two would. */
  const interruptedSignUp = async (email: string) => {
    const token = await createIdentity(email, true);
    await t.db.query(`
      CREATE FUNCTION refuse_sessions() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'sessions refused on purpose'; END $$;
      CREATE TRIGGER refuse_sessions BEFORE INSERT ON session_families FOR EACH ROW EXECUTE FUNCTION refuse_sessions();`);
    try {
      expect((await signUp(token, body(email))).statusCode).toBeGreaterThanOrEqual(500);
    } finally {
      await t.db.query('DROP TRIGGER refuse_sessions ON session_families; DROP FUNCTION refuse_sessions();');
    }
    expect(await t.db.query('SELECT 1 FROM clients WHERE account = $1', [email])).toHaveLength(1);
    return token;
  };
  const signedUpEvents = (email: string) =>
    t.db.query(
      "SELECT 1 FROM security_events WHERE type = 'client_signed_up' AND actor = (SELECT 'client:' || id FROM clients WHERE account = $1)",
      [email],
    );

  it('a sign-up whose client was made but whose session failed to start is finished by the same sign-up sent again, once', async () => {
    const email = `interrupted-${Date.now()}@example.com`;
    const token = await interruptedSignUp(email);
    // Another password is not the same sign-up.
    const otherPassword = { ...body(email), account_informations: { account: email, password: 'Other123!x' } };
    expect((await signUp(token, otherPassword)).statusCode).toBe(409);

    const again = await signUp(token, body(email));
    expect(again.statusCode, again.body).toBe(200);
    const me = await t.app.inject({ method: 'GET', url: '/api/client/manage', headers: { cookie: cookieHeader(again) } });
    expect(me.json().data).toMatchObject({ account: email });
    expect(await signedUpEvents(email)).toHaveLength(1);
    // Finished, it is an account like any other: a sign-up of it now is a duplicate.
    expect((await signUp(token, body(email))).statusCode).toBe(409);
  });

  it('an unfinished sign-up sent again twice at once is finished once: one session, one sign-up event, the other a duplicate', async () => {
    const email = `twice-${Date.now()}@example.com`;
    const token = await interruptedSignUp(email);
    const answers = await Promise.all([signUp(token, body(email)), signUp(token, body(email))]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    expect(
      await t.db.query(
        "SELECT 1 FROM session_families WHERE audience = 'client' AND subject_id = (SELECT id FROM clients WHERE account = $1)",
        [email],
      ),
    ).toHaveLength(1);
    expect(await signedUpEvents(email)).toHaveLength(1);
  });

  it('refuses an unverified e-mail, a mismatched e-mail, a bad phone and missing fields', async () => {
    const email = `unverified-${Date.now()}@example.com`;
    const unverified = await createIdentity(email, false);
    const r1 = await signUp(unverified, body(email));
    expect(r1.statusCode).toBe(403);
    expect(r1.json().error.message).toBe('Email is not verified yet.');

    const verifiedEmail = `verified-${Date.now()}@example.com`;
    const verified = await createIdentity(verifiedEmail, true);
    expect((await signUp(verified, body('someone-else@example.com'))).statusCode).toBe(403);
    expect((await signUp(verified, body(verifiedEmail, '0861234567'))).json().error.message).toBe(
      'Phone number must be Algerian and start with 05, 06, or 07.',
    );
    expect((await signUp(verified, { ...body(verifiedEmail), firstName: ' ' })).json().error.message).toBe('All fields are required.');
    expect((await signUp('not-a-token', body(verifiedEmail))).statusCode).toBe(401);
  });
});

// Production safety read as an attacker would: guessing passwords (in bursts, from many addresses,
// behind forged proxies, across instances), weak passwords, one e-mail in two account tables,
// sessions that never end, and what is logged. Each test fails on the code before issue 10.
import { randomUUID } from 'node:crypto';
import bcrypt from 'bcrypt';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app.ts';
import { ConfigError, loadConfig } from '../src/config.ts';
import { expectedCheckMs, passwordHasher } from '../src/modules/accounts/passwords.ts';
import { EVENT_WINDOW_MINUTES } from '../src/modules/security/security-events.ts';
import { PURGE_SESSIONS_SQL, PURGE_TOKENS_SQL } from '../src/modules/sessions/session-repository.ts';
import { cookieHeader, createTestApp, DEMO, type TestApp } from './helpers.ts';

const LIMITS = { windowMs: 60_000, perPair: 3, perAccount: 6, perAddress: 40, passwordPerDay: 15 };
let t: TestApp;
let legacyHash: string;
beforeAll(async () => {
  t = await createTestApp({ throttle: LIMITS });
  legacyHash = bcrypt.hashSync(DEMO.client.password, 10);
});

const login = (account: string, password: string, remoteAddress = '203.0.113.7', app = t.app, headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url: '/api/public/authentication/login', payload: { account, password }, remoteAddress, headers });

/** A fresh client signing in with the demo client password (plain bcrypt, as hashed before issue 10). */
async function newClient(hash = legacyHash) {
  const account = `c-${randomUUID()}@example.com`;
  await t.db.query(
    "INSERT INTO clients (first_name, last_name, phone_number, account, password_hash) VALUES ('C', 'L', '0555000000', $1, $2)",
    [account, hash],
  );
  return account;
}
const events = (type: string, actor?: string) =>
  t.db.query<{ actor: string | null; address: string | null; details: unknown; count: number; bucket: Date }>(
    'SELECT actor, address, details, count, bucket FROM security_events WHERE type = $1 AND ($2::text IS NULL OR actor = $2) ORDER BY id',
    [type, actor ?? null],
  );

describe('sign-in that resists guessing', () => {
  it('a parallel burst of 20 wrong passwords at a limit of 3 gets at most 3 answers of 401', async () => {
    const account = await newClient();
    const answers = await Promise.all(Array.from({ length: 20 }, () => login(account, 'Wrong-password-1')));
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(3);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(17);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    const refused = answers.find((r) => r.statusCode === 429)!;
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Locked for this address, even with the right password...
    expect((await login(account, DEMO.client.password)).statusCode).toBe(429);
    // ...but not for the account's owner elsewhere: a hard lock per account would let anyone lock out the Admin.
    expect((await login(account, DEMO.client.password, '198.51.100.20')).statusCode).toBe(200);
  });

  it('slows an account down with growing delays for addresses that failed on it, and lets a clean address through', async () => {
    const account = await newClient();
    // Twelve addresses fail once each: no pair locked, the account at twice its limit of 6. Addresses
    // that had not failed on it are never slowed, so every one of these is a plain 401.
    for (let i = 1; i <= 12; i++) expect((await login(account, 'Wrong-password-1', `192.0.2.${i}`)).statusCode).toBe(401);
    // An address that failed on it now waits 2^(12 - 6) seconds since the last failure, right password or not.
    const slowed = await login(account, DEMO.client.password, '192.0.2.1');
    expect(slowed.statusCode).toBe(429);
    expect(Number(slowed.headers['retry-after'])).toBeGreaterThanOrEqual(2 ** (12 - LIMITS.perAccount) - 2);
    expect((await login(account, 'Wrong-password-1', '192.0.2.2')).statusCode).toBe(429);
    expect((await login(account, DEMO.client.password, '192.0.2.200')).statusCode).toBe(200);
  });

  it("past a day's failed passwords, fresh addresses no longer guess at all; the owner's browser (its device cookie) still signs in", async () => {
    const account = await newClient();
    const other = await newClient();
    // The owner signed in from their browser before: its answer marks the browser.
    const owned = await login(account, DEMO.client.password, '198.51.100.1');
    expect(owned.statusCode).toBe(200);
    const device = owned.cookies.find((c) => c.name === 'bs_device')!;
    expect(device).toMatchObject({ httpOnly: true, path: '/api', sameSite: 'Strict' });
    const otherDevice = (await login(other, DEMO.client.password, '198.51.100.2')).cookies.find((c) => c.name === 'bs_device')!;
    // A guess from each of 15 fresh addresses: each a plain 401 (none had failed on it before).
    for (let i = 1; i <= 15; i++) expect((await login(account, 'Wrong-password-1', `2001:db8:${i.toString(16)}::1`)).statusCode).toBe(401);
    // The day's 15 are spent: a 16th fresh address is refused before its password is checked, right or wrong...
    const refused = await login(account, DEMO.client.password, '2001:db8:ff::1');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(23 * 60 * 60);
    // ...and another account's browser is no browser of this one's.
    expect(
      (await login(account, DEMO.client.password, '2001:db8:fe::1', t.app, { cookie: `bs_device=${otherDevice.value}` })).statusCode,
    ).toBe(429);
    // The owner's browser, from wherever it is now, signs in.
    const owner = await login(account, DEMO.client.password, '2001:db8:fd::1', t.app, { cookie: `bs_device=${device.value}` });
    expect(owner.statusCode).toBe(200);
  });

  it("a new password takes back every other browser's mark; the browser that set it keeps one", async () => {
    const account = await newClient();
    const before = (await login(account, DEMO.client.password, '198.51.100.4')).cookies.find((c) => c.name === 'bs_device')!;
    const changing = await login(account, DEMO.client.password, '198.51.100.5');
    const newPassword = 'Lantern-Harbour-58';
    const changed = await t.changeClientPassword(cookieHeader(changing), { oldPassword: DEMO.client.password, newPassword });
    expect(changed.statusCode, changed.body).toBe(200);
    const after = changed.cookies.find((c) => c.name === 'bs_device')!;
    // The day's failures spent from fresh addresses.
    for (let i = 1; i <= LIMITS.passwordPerDay; i++) {
      expect((await login(account, 'Wrong-password-1', `2001:db8:cc:${i.toString(16)}::1`)).statusCode).toBe(401);
    }
    // A browser marked under the old password (someone who knew it) is a stranger's now...
    expect((await login(account, newPassword, '2001:db8:cd::1', t.app, { cookie: `bs_device=${before.value}` })).statusCode).toBe(429);
    // ...and the owner's browser, which set the new one, signs in.
    expect((await login(account, newPassword, '2001:db8:ce::1', t.app, { cookie: `bs_device=${after.value}` })).statusCode).toBe(200);
  });

  it("an attempt the slowdown refuses checks no password and spends none of the day's failures", async () => {
    const account = await newClient();
    // Seven addresses fail once: the account (limit 6) slows down the addresses that failed on it.
    for (let i = 1; i <= 7; i++) expect((await login(account, 'Wrong-password-1', `2001:db8:5:${i}::1`)).statusCode).toBe(401);
    // One of them tries twenty times more, each refused by the slowdown before any check.
    for (let i = 0; i < 20; i++) expect((await login(account, 'Wrong-password-1', '2001:db8:5:1::1')).statusCode).toBe(429);
    // Seven of the day's 15 are spent, not 27: a fresh address still signs in.
    expect((await login(account, DEMO.client.password, '2001:db8:5:ff::1')).statusCode).toBe(200);
  });

  it("a burst of guesses at once from as many fresh addresses cannot pass the day's limit, and a tampered device cookie is no browser of the account", async () => {
    const account = await newClient();
    const device = (await login(account, DEMO.client.password, '198.51.100.3')).cookies.find((c) => c.name === 'bs_device')!;
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => login(account, 'Wrong-password-1', `2001:db8:ab:${(i + 1).toString(16)}::1`)),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(LIMITS.passwordPerDay);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    // One character of the signature changed, the shape kept: refused by the signature, not the shape.
    const tampered = `${device.value.slice(0, -1)}${device.value.endsWith('A') ? 'B' : 'A'}`;
    expect((await login(account, DEMO.client.password, '2001:db8:ac::1', t.app, { cookie: `bs_device=${tampered}` })).statusCode).toBe(429);
    expect((await login(account, DEMO.client.password, '2001:db8:ad::1', t.app, { cookie: `bs_device=${device.value}` })).statusCode).toBe(
      200,
    );
  });

  it('records failures and the lockout as security events, never with the password', async () => {
    const account = await newClient();
    for (let i = 0; i < 3; i++) await login(account, 'Wrong-password-9', '203.0.113.99');
    // Repeated from one address in one window of ten minutes: one row, counted (two, should the three
    // straddle a window's end).
    const failed = await events('login_failed', account);
    expect(failed.every((row) => row.address === '203.0.113.99')).toBe(true);
    expect(failed.reduce((sum, row) => sum + Number(row.count), 0)).toBe(3);
    // One row, or two whose windows follow each other.
    if (failed.length === 2) expect(failed[1]!.bucket.getTime() - failed[0]!.bucket.getTime()).toBe(EVENT_WINDOW_MINUTES * 60_000);
    else expect(failed).toHaveLength(1);
    expect(await events('login_locked', account)).toHaveLength(1);
    const all = JSON.stringify(await t.db.query('SELECT * FROM security_events'));
    expect(all).not.toContain('Wrong-password-9');
  });

  it('counts IPv6 clients by their /64, so rotating addresses inside it gains nothing', async () => {
    const account = await newClient();
    for (let i = 1; i <= 3; i++) expect((await login(account, 'Wrong-password-1', `2001:db8:1:2::${i}`)).statusCode).toBe(401);
    expect((await login(account, 'Wrong-password-1', '2001:db8:1:2:ffff::9')).statusCode).toBe(429);
  });

  it('a forged X-Forwarded-For changes nothing without a configured proxy; with TRUST_PROXY=1 the last hop counts', async () => {
    const account = await newClient();
    for (let i = 1; i <= 3; i++) {
      await login(account, 'Wrong-password-1', '203.0.113.50', t.app, { 'x-forwarded-for': `10.9.9.${i}` });
    }
    const forged = await login(account, DEMO.client.password, '203.0.113.50', t.app, { 'x-forwarded-for': '10.9.9.77' });
    expect(forged.statusCode).toBe(429);

    const behindProxy = await buildApp(loadConfig({ NODE_ENV: 'test', DATABASE_URL: t.db.url, TRUST_PROXY: '1' }), { throttle: LIMITS });
    try {
      const other = await newClient();
      // The client wrote a fake first hop; the proxy appended the real address, which is what counts.
      for (let i = 1; i <= 3; i++) {
        await login(other, 'Wrong-password-1', '10.0.0.2', behindProxy, { 'x-forwarded-for': `1.1.1.${i}, 198.51.100.66` });
      }
      expect((await login(other, DEMO.client.password, '10.0.0.2', behindProxy, { 'x-forwarded-for': '198.51.100.66' })).statusCode).toBe(
        429,
      );
      expect((await login(other, DEMO.client.password, '10.0.0.2', behindProxy, { 'x-forwarded-for': '198.51.100.67' })).statusCode).toBe(
        200,
      );
    } finally {
      await behindProxy.close();
    }
  });

  it('two API instances on one database share the limit', async () => {
    const second = await buildApp(loadConfig({ NODE_ENV: 'test', DATABASE_URL: t.db.url }), { throttle: LIMITS });
    try {
      const account = await newClient();
      const answers = [];
      for (let i = 0; i < 6; i++)
        answers.push((await login(account, 'Wrong-password-1', '203.0.113.8', i % 2 ? second : t.app)).statusCode);
      expect(answers).toEqual([401, 401, 401, 429, 429, 429]);
    } finally {
      await second.close();
    }
  });

  it('throttles the current-password check of a password change like a sign-in', async () => {
    const account = await newClient();
    const cookie = await t.login({ account, password: DEMO.client.password });
    const change = (oldPassword: string) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/client/manage/password/',
        headers: { cookie },
        remoteAddress: '203.0.113.120',
        payload: { oldPassword, newPassword: 'A-much-better-passphrase' },
      });
    for (let i = 0; i < 3; i++) expect((await change('Wrong-password-1')).statusCode).toBe(400);
    expect((await change(DEMO.client.password)).statusCode).toBe(429);
    expect(await events('password_check_failed', account)).toMatchObject([{ count: 3 }]);
  });

  it('answers an unknown account as slowly as a real one at cost 12 (within 20 %), and rehashes cheaper hashes', async () => {
    const strong = await createTestApp({
      env: { BCRYPT_COST: '12' },
      throttle: { ...LIMITS, perPair: 1000, perAccount: 1000, perAddress: 1000 },
    });
    const account = `t-${randomUUID()}@example.com`;
    await strong.db.query(
      "INSERT INTO clients (first_name, last_name, phone_number, account, password_hash) VALUES ('T', 'L', '0555000000', $1, $2)",
      [account, legacyHash],
    );
    // The first right sign-in replaces the plain cost-10 hash with a pre-hashed cost-12 one.
    expect((await login(account, DEMO.client.password, '203.0.113.1', strong.app)).statusCode).toBe(200);
    const [row] = await strong.db.query<{ password_hash: string }>('SELECT password_hash FROM clients WHERE account = $1', [account]);
    expect(row!.password_hash).toMatch(/^bcrypt-sha256:\$2b\$12\$/);

    // Two right sign-ins at once with a hash due for a stronger one: both are let in, whichever rehashes.
    const twice = `t-${randomUUID()}@example.com`;
    await strong.db.query(
      "INSERT INTO clients (first_name, last_name, phone_number, account, password_hash) VALUES ('T', 'W', '0555000000', $1, $2)",
      [twice, legacyHash],
    );
    const both = await Promise.all([
      login(twice, DEMO.client.password, '203.0.113.3', strong.app),
      login(twice, DEMO.client.password, '203.0.113.4', strong.app),
    ]);
    expect(both.map((res) => res.statusCode)).toEqual([200, 200]);

    const time = async (who: string) => {
      const started = process.hrtime.bigint();
      expect((await login(who, 'Wrong-password-1', '203.0.113.2', strong.app)).statusCode).toBe(401);
      return Number(process.hrtime.bigint() - started) / 1e6;
    };
    // Interleaved pairs, compared pair by pair: whatever else loads the machine loads both sides alike.
    const ratios: number[] = [];
    for (let i = 0; i < 9; i++) {
      const real = await time(account);
      ratios.push((await time(`nobody-${i}@example.com`)) / real);
    }
    const median = [...ratios].sort((a, b) => a - b)[Math.floor(ratios.length / 2)]!;
    expect(median).toBeGreaterThan(0.8);
    expect(median).toBeLessThan(1.2);
  });
});

describe('passwords (ASVS 5.0)', () => {
  /** A new client changes their password to `newPassword` (or to what it makes of their account). */
  const change = async (newPassword: string | ((account: string) => string)) => {
    const account = await newClient();
    const cookie = await t.login({ account, password: DEMO.client.password });
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/client/manage/password/',
      headers: { cookie },
      remoteAddress: `198.18.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
      payload: { oldPassword: DEMO.client.password, newPassword: typeof newPassword === 'string' ? newPassword : newPassword(account) },
    });
    return { res, account };
  };

  it('refuses short, common and own-e-mail passwords with the rule module’s messages', async () => {
    expect((await change('Abc12!')).res.json().error.message).toBe('Password must be at least 8 characters long.');
    expect((await change('iloveyou')).res.json().error.message).toBe('This password is too common. Please choose a less guessable one.');
    expect((await change('PASSWORD123')).res.json().error.message).toBe('This password is too common. Please choose a less guessable one.');
    const own = await change((account) => account.toUpperCase());
    expect(own.res.json().error.message).toBe('Your password must not be your e-mail address.');
    expect((await change('x'.repeat(129))).res.json().error.message).toBe('Password must be at most 128 characters long.');
  });

  it('accepts 64 characters in any script, every character counting', async () => {
    for (const password of ['αβγδεζηθ'.repeat(8), '書店で本を買う'.repeat(10), '📚🔖'.repeat(32)]) {
      const { res, account } = await change(password);
      expect(res.statusCode, res.body).toBe(200);
      expect((await login(account, password, '198.19.0.1')).statusCode).toBe(200);
      // bcrypt alone would read only the first 72 bytes; the last character must matter.
      expect((await login(account, `${password.slice(0, -1)}X`, '198.19.0.2')).statusCode).toBe(401);
    }
  });
});

describe('one login namespace', () => {
  it('sign-up, employee creation and an employee e-mail change refuse an e-mail the other table holds', async () => {
    const admin = await t.login(DEMO.admin);
    const person = (email: string) => ({
      firstName: 'Eve',
      lastName: 'Twin',
      gender: 'Female',
      birthDate: '1990-05-05',
      email,
      phoneNumber: '0661000009',
      address: '3 Rue Larbi Ben Mhidi, Algiers',
    });
    const add = await t.app.inject({
      method: 'POST',
      url: '/api/employee/',
      headers: { cookie: admin },
      payload: { person_informations: person(DEMO.client.account), password: 'A-long-new-passphrase', role: 'Seller' },
    });
    expect(add.statusCode).toBe(409);
    expect(add.json().error.message).toBe('An account with this e-mail already exists.');

    const own = await t.app.inject({
      method: 'PUT',
      url: '/api/employee/',
      headers: { cookie: admin },
      payload: { ...person(DEMO.client.account), currentPassword: DEMO.admin.password },
    });
    expect(own.statusCode).toBe(409);
    expect(own.json().error.message).toBe('An account with this e-mail already exists.');

    // The database enforces it too, whatever the application does.
    await expect(
      t.db.query(
        "INSERT INTO clients (first_name, last_name, phone_number, account, password_hash) VALUES ('X', 'Y', '0555000000', $1, 'x')",
        [DEMO.admin.account],
      ),
    ).rejects.toThrow(/login_names/);
    // Keeping one's own e-mail while editing the rest is fine.
    const keep = await t.app.inject({
      method: 'PUT',
      url: '/api/employee/',
      headers: { cookie: admin },
      payload: person(DEMO.admin.account),
    });
    expect(keep.statusCode, keep.body).toBe(200);
  });
});

describe('sessions with an end', () => {
  const me = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/client/manage', headers: { cookie } });
  const refresh = (cookie: string, type = 'Client') =>
    t.app.inject({ method: 'POST', url: `/api/public/authentication/refresh-tokens/${type}`, headers: { cookie } });
  const latestFamily = async () =>
    (await t.db.query<{ id: string }>('SELECT id FROM session_families ORDER BY started_at DESC LIMIT 1'))[0]!.id;

  it('an employee session ends 12 hours after sign-in, whatever refreshes it', async () => {
    const cookie = await t.login(DEMO.seller);
    await t.db.query("UPDATE session_families SET started_at = now() - interval '12 hours 1 minute' WHERE id = $1", [await latestFamily()]);
    expect((await t.app.inject({ method: 'GET', url: '/api/employee/employee/', headers: { cookie } })).statusCode).toBe(401);
    expect((await refresh(cookie, 'Seller')).statusCode).toBe(401);
  });

  it('an idle session ends; refreshes are not activity, signed-in calls are', async () => {
    const cookie = await t.login(DEMO.client);
    const family = await latestFamily();
    await t.db.query("UPDATE session_families SET last_active_at = now() - interval '6 days' WHERE id = $1", [family]);
    // A timer's refresh does not count as activity...
    const rotated = await refresh(cookie);
    expect(rotated.statusCode).toBe(200);
    const [{ idle }] = (await t.db.query<{ idle: boolean }>(
      "SELECT last_active_at < now() - interval '5 days' AS idle FROM session_families WHERE id = $1",
      [family],
    )) as [{ idle: boolean }];
    expect(idle).toBe(true);
    // ...a call does.
    const next = cookieHeader(rotated, cookie);
    expect((await me(next)).statusCode).toBe(200);
    await t.db.query("UPDATE session_families SET last_active_at = now() - interval '7 days 1 minute' WHERE id = $1", [family]);
    const away = await me(next);
    expect(away.statusCode).toBe(401);
    expect(away.json().error.message).toBe('You were away for a while. Please sign in again.');
    expect((await refresh(next)).statusCode).toBe(401);
  });

  it('a call the app judges idle never marks the session active, even when the database clock is behind', async () => {
    const cookie = await t.login(DEMO.client);
    const family = await latestFamily();
    // Two seconds short of the 7-day idle limit by the database's clock...
    await t.db.query(
      "UPDATE session_families SET last_active_at = now() AT TIME ZONE 'UTC' - interval '7 days' + interval '2 seconds' WHERE id = $1",
      [family],
    );
    // ...and past it by the app's, five seconds ahead: the statement and the app must agree.
    vi.useFakeTimers({ now: Date.now() + 5000, toFake: ['Date'] });
    try {
      const away = await me(cookie);
      expect(away.statusCode).toBe(401);
      expect(away.json().error.message).toBe('You were away for a while. Please sign in again.');
    } finally {
      vi.useRealTimers();
    }
    const [{ touched }] = (await t.db.query<{ touched: boolean }>(
      "SELECT last_active_at > now() AT TIME ZONE 'UTC' - interval '1 day' AS touched FROM session_families WHERE id = $1",
      [family],
    )) as [{ touched: boolean }];
    expect(touched).toBe(false);
  });

  it('refuses an access token whose session row does not exist', async () => {
    const cookie = await t.login(DEMO.client);
    await t.db.query('DELETE FROM session_families WHERE id = $1', [await latestFamily()]);
    expect((await me(cookie)).statusCode).toBe(401);
  });

  it('records refresh-token reuse after the interval as theft, and purges spent and dead tokens', async () => {
    const first = await t.login(DEMO.client);
    const family = await latestFamily();
    await refresh(first);
    await t.db.query("UPDATE refresh_tokens SET used_at = now() - interval '2 days' WHERE family_id = $1 AND used_at IS NOT NULL", [
      family,
    ]);
    expect((await refresh(first)).statusCode).toBe(401);
    const theft = await t.db.query<{ entity_id: string }>("SELECT entity_id FROM security_events WHERE type = 'refresh_token_reuse'");
    expect(theft.map((e) => e.entity_id)).toContain(family);

    // A backlog larger than one of the purge's batches (5,000 rows a statement, each committed) goes whole.
    await t.db.query(
      `
      INSERT INTO refresh_tokens (id, family_id, audience, subject_id, token_hash, expires_at)
      SELECT gen_random_uuid(), $1, 'client', 1, 'expired-' || n, now() - interval '1 hour' FROM generate_series(1, 12001) AS n`,
      [family],
    );
    await t.app.sessions.purge();
    const left = await t.db.query<{ used_at: Date | null }>('SELECT used_at FROM refresh_tokens WHERE family_id = $1', [family]);
    expect(left.every((r) => r.used_at === null)).toBe(true);
    expect(await t.db.query("SELECT 1 FROM refresh_tokens WHERE token_hash LIKE 'expired-%'")).toEqual([]);
  });

  it("purges through indexes, not a scan of every session's tokens, and a session's tokens go with it", async () => {
    // Many live sessions, each with a live token, started a week ago (latestFamily never picks them),
    // and one revoked two days ago whose token has not expired.
    await t.db.query(`
      INSERT INTO session_families (id, audience, subject_id, started_at, last_active_at)
      SELECT gen_random_uuid(), 'client', 1, now() - interval '7 days', now() FROM generate_series(1, 20000)`);
    await t.db.query(`
      INSERT INTO refresh_tokens (id, family_id, audience, subject_id, token_hash, expires_at)
      SELECT gen_random_uuid(), id, 'client', 1, 'live-' || id, now() + interval '1 day' FROM session_families
      WHERE started_at < now() - interval '6 days'`);
    const revoked = randomUUID();
    await t.db.query(
      "INSERT INTO session_families (id, audience, subject_id, started_at, revoked_at) VALUES ($1, 'client', 1, now() - interval '3 days', now() - interval '2 days')",
      [revoked],
    );
    await t.db.query(
      "INSERT INTO refresh_tokens (id, family_id, audience, subject_id, token_hash, expires_at) VALUES (gen_random_uuid(), $1, 'client', 1, 'revoked-live', now() + interval '1 day')",
      [revoked],
    );
    try {
      await t.db.query('ANALYZE refresh_tokens, session_families');
      for (const [statement, values] of [
        [PURGE_TOKENS_SQL, ['5000']],
        [PURGE_SESSIONS_SQL, ['2592000', '5000']],
      ] as const) {
        const literal = values.reduce<string>((sql, value, i) => sql.replaceAll(`$${i + 1}`, value), statement);
        const plan = JSON.stringify(await t.db.query(`EXPLAIN (FORMAT JSON) ${literal}`));
        expect(plan).not.toContain('Seq Scan');
      }
      // A backlog of revoked sessions, a batch's worth: their tokens are still looked up by family.
      await t.db.query(`
        WITH gone AS (
          INSERT INTO session_families (id, audience, subject_id, started_at, revoked_at)
          SELECT gen_random_uuid(), 'client', 1, now() - interval '3 days', now() - interval '2 days' FROM generate_series(1, 6000)
          RETURNING id)
        INSERT INTO refresh_tokens (id, family_id, audience, subject_id, token_hash, expires_at)
        SELECT gen_random_uuid(), id, 'client', 1, 'revoked-' || id, now() + interval '1 day' FROM gone`);
      await t.db.query('ANALYZE refresh_tokens, session_families');
      const backlog = JSON.stringify(
        await t.db.query(`EXPLAIN (FORMAT JSON) ${PURGE_SESSIONS_SQL.replace('$1', '2592000').replace('$2', '5000')}`),
      );
      expect(backlog).not.toMatch(/"Node Type":"Seq Scan"[^}]*"Relation Name":"refresh_tokens"/);
      await t.app.sessions.purge();
      expect(await t.db.query('SELECT 1 FROM session_families WHERE id = $1', [revoked])).toEqual([]);
      expect(await t.db.query("SELECT 1 FROM refresh_tokens WHERE token_hash LIKE 'revoked-%'")).toEqual([]);
      expect(
        await t.db.query("SELECT 1 FROM session_families WHERE started_at < now() - interval '2 days' AND revoked_at IS NOT NULL"),
      ).toEqual([]);
      expect((await t.db.query("SELECT 1 FROM refresh_tokens WHERE token_hash LIKE 'live-%'")).length).toBe(20000);
    } finally {
      await t.db.query("DELETE FROM refresh_tokens WHERE token_hash LIKE 'live-%' OR token_hash LIKE 'revoked-%'");
      await t.db.query(
        "DELETE FROM session_families WHERE started_at < now() - interval '6 days' OR id = $1 OR (revoked_at IS NOT NULL AND started_at < now() - interval '2 days')",
        [revoked],
      );
    }
  });

  it('a client replaying their own spent tokens, session after session, adds one row a window with the count, not a row each', async () => {
    const account = (await t.newClient()).account;
    const before = await t.db.query("SELECT 1 FROM security_events WHERE type = 'refresh_token_reuse'");
    for (let session = 0; session < 3; session++) {
      const first = await t.login({ account, password: DEMO.client.password });
      expect((await refresh(first)).statusCode).toBe(200);
      await t.db.query("UPDATE refresh_tokens SET used_at = now() - interval '31 seconds' WHERE family_id = $1 AND used_at IS NOT NULL", [
        await latestFamily(),
      ]);
      expect((await refresh(first)).statusCode).toBe(401);
    }
    const rows = await t.db.query<{ count: number }>(
      "SELECT count FROM security_events WHERE type = 'refresh_token_reuse' AND actor = (SELECT 'client:' || id FROM clients WHERE account = $1)",
      [account],
    );
    expect(rows).toEqual([{ count: 3 }]);
    expect((await t.db.query("SELECT 1 FROM security_events WHERE type = 'refresh_token_reuse'")).length).toBe(before.length + 1);
  });

  it('records a refused role and a refused cross-site call', async () => {
    const seller = await t.login(DEMO.seller);
    expect((await t.app.inject({ method: 'GET', url: '/api/employee/employees/', headers: { cookie: seller } })).statusCode).toBe(403);
    expect((await events('authorization_refused')).length).toBeGreaterThan(0);
    const csrf = await t.app.inject({
      method: 'POST',
      url: '/api/public/contact/',
      headers: { origin: 'https://evil.example' },
      payload: { userName: 'a', account: 'a@b.co', message: 'x' },
    });
    expect(csrf.statusCode).toBe(403);
    expect((await events('csrf_refused')).length).toBeGreaterThan(0);
  });

  it("refuses a write from the shop's own host over another scheme than PUBLIC_URL's (a page over plain http)", async () => {
    const shop = await buildApp(loadConfig({ NODE_ENV: 'test', DATABASE_URL: t.db.url, PUBLIC_URL: 'https://shop.example.com' }), {
      throttle: LIMITS,
    });
    try {
      const send = (origin: string) =>
        shop.inject({
          method: 'POST',
          url: '/api/public/contact/',
          headers: { origin, host: 'shop.example.com' },
          payload: { userName: 'Ann', account: 'ann@example.com', message: 'Hello' },
          remoteAddress: '203.0.113.91',
        });
      expect((await send('http://shop.example.com')).statusCode).toBe(403);
      expect((await send('https://shop.example.com')).statusCode).toBe(200);
    } finally {
      await shop.close();
    }
  });
});

describe('every back-office write is recorded: who, what, before and after', () => {
  const writes = (entity: string) =>
    t.db.query<{
      actor: string;
      entity_id: string;
      details: { operation: string; changed: string[]; before: Row | null; after: Row | null };
    }>("SELECT actor, entity_id, details FROM security_events WHERE type = 'backoffice_write' AND entity = $1 ORDER BY id", [entity]);
  type Row = Record<string, unknown>;

  it('records an author rename, a copy update and a message delete with the acting employee', async () => {
    const admin = await t.login(DEMO.admin);
    const [{ id: adminId }] = (await t.db.query<{ id: number }>('SELECT id FROM employees WHERE email = $1', [DEMO.admin.account])) as [
      { id: number },
    ];
    const call = (method: 'PUT' | 'DELETE', url: string, payload?: object) =>
      t.app.inject({ method, url, headers: { cookie: admin }, payload });
    expect((await call('PUT', `/api/employee/author/5,${encodeURIComponent('Renamed For Audit')}`)).statusCode).toBe(200);
    const [rename] = await writes('Author');
    expect(rename!.actor).toBe(`employee:${adminId}`);
    expect(rename!.entity_id).toBe('5');
    expect(rename!.details.changed).toEqual(['full_name']);
    expect(rename!.details.after).toMatchObject({ id: 5, full_name: 'Renamed For Audit' });
    expect(rename!.details.before!.full_name).not.toBe('Renamed For Audit');

    const copy = (await t.db.query<{ book_id: number }>('SELECT book_id FROM book_copies WHERE id = 9'))[0]!;
    await call('PUT', '/api/employee/book-copy/', { id: 9, bookId: copy.book_id, quantity: 77, price: 12.34, isAvailable: false });
    const [update] = await writes('BookCopy');
    expect(update!.details.changed).toEqual(expect.arrayContaining(['is_available', 'price', 'quantity']));
    expect(update!.details.after).toMatchObject({ quantity: 77, price: 12.34, is_available: false });

    const [message] = await t.db.query<{ id: number }>('SELECT id FROM contact_messages ORDER BY id LIMIT 1');
    await call('DELETE', `/api/employee/contact/${message!.id}`);
    const [deleted] = await writes('ContactMessage');
    expect(deleted!.details).toMatchObject({ operation: 'delete', before: { id: message!.id }, after: null });
  });

  it('records a password change as a change of the hash, never the hash itself', async () => {
    const seller = await t.login(DEMO.seller);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/employee/password/',
      headers: { cookie: seller },
      payload: { oldPassword: DEMO.seller.password, newPassword: 'Seller-new-passphrase' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const changes = (await writes('Employee')).filter((w) => w.details.changed.includes('password_hash'));
    expect(changes.length).toBeGreaterThan(0);
    expect(JSON.stringify(changes)).not.toMatch(/\$2[aby]\$|bcrypt-sha256|Seller-new-passphrase/);
  });

  it('records nothing for storefront writes', async () => {
    const before = (await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM security_events WHERE type = 'backoffice_write'"))[0]!
      .n;
    const client = await t.login(DEMO.client);
    await t.app.inject({
      method: 'PATCH',
      url: '/api/client/manage',
      headers: { cookie: client },
      payload: { firstName: 'D', lastName: 'C', phoneNumber: '0555123456' },
    });
    const after = (await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM security_events WHERE type = 'backoffice_write'"))[0]!.n;
    expect(after).toBe(before);
  });
});

describe('bounded hashing work', () => {
  it('answers 503 at once when more hashes wait than the cap, instead of queueing CPU work', async () => {
    const hasher = passwordHasher(10, { concurrent: 1, queued: 2, unknownAccountsAtOnce: 1 });
    const stored = await hasher.hash('the account password');
    const outcomes = await Promise.allSettled(Array.from({ length: 6 }, () => hasher.verify('whatever-password', stored)));
    const busy = outcomes.filter((o) => o.status === 'rejected');
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(3);
    expect(busy).toHaveLength(3);
    expect((busy[0] as PromiseRejectedResult).reason).toMatchObject({ statusCode: 503, code: 'BUSY' });
    // With the hasher full, a made-up name's check gets the 503 a real name's wrong password gets,
    // whether its own lane had room (the first) or not (the second).
    const full = await Promise.allSettled([
      ...Array.from({ length: 3 }, () => hasher.verify('x', stored)),
      hasher.verify('x', null),
      hasher.verify('x', null),
    ]);
    expect(full.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'rejected']);
    expect(full.slice(3)).toMatchObject([{ reason: { statusCode: 503, code: 'BUSY' } }, { reason: { statusCode: 503, code: 'BUSY' } }]);
  });

  it("gives checks against no account one thread: a stranger's made-up names by the hundred keep no one from signing in", async () => {
    const hasher = passwordHasher(10, { concurrent: 2, queued: 4, unknownAccountsAtOnce: 1 });
    const stored = await hasher.hash('the account password');
    const compare = vi.spyOn(bcrypt, 'compare');
    try {
      const strangers = Array.from({ length: 100 }, () => hasher.verify('a guess', null));
      const owner = await hasher.verify('the account password', stored);
      expect(owner).toEqual({ ok: true, needsRehash: false });
      const answers = await Promise.all(strangers);
      expect(answers.filter((answer) => answer.ok)).toEqual([]);
      // The first made-up name hashed; the others waited as long as a check takes, hashing nothing.
      expect(compare).toHaveBeenCalledTimes(1 + 1);
    } finally {
      compare.mockRestore();
    }
  });

  it("makes a made-up name past its lane wait as long as a real name's check would take then: a hash when idle, the queue ahead too when not", async () => {
    expect(expectedCheckMs(250, 0, 0, 4)).toBe(250);
    expect(expectedCheckMs(250, 3, 0, 4)).toBe(250);
    // All four threads taken and eight waiting: nine hashes end, four a hash, before its own.
    expect(expectedCheckMs(250, 4, 8, 4)).toBe(250 * (1 + 9 / 4));
    const hasher = passwordHasher(10, { concurrent: 2, queued: 10, unknownAccountsAtOnce: 1 });
    const stored = await hasher.hash('the account password');
    const waits: number[] = [];
    const setTimeoutSpy = vi.spyOn(globalThis, 'setTimeout').mockImplementation(((run: () => void, ms?: number) => {
      waits.push(ms ?? 0);
      run();
      return 0;
    }) as typeof setTimeout);
    try {
      // One made-up name hashes (the lane); the next waits, the hasher otherwise idle.
      const checks = [hasher.verify('a guess', null), hasher.verify('a guess', null)];
      // Six real checks on two threads, then a made-up name: three hashes ahead of it on each thread.
      checks.push(...Array.from({ length: 6 }, () => hasher.verify('wrong', stored)), hasher.verify('a guess', null));
      await Promise.all(checks);
      expect(waits).toHaveLength(2);
      expect(waits[0]).toBeGreaterThan(0);
      expect(waits[1]! / waits[0]!).toBe(4);
    } finally {
      setTimeoutSpy.mockRestore();
    }
  });
});

describe('headers and anonymous writes', () => {
  it('sends a CSP fitted to the app on pages, one that allows nothing on JSON, no framing, nosniff and a referrer policy; no-store on private answers', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/docs' });
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain('img-src');
    expect(csp).toContain('https://identitytoolkit.googleapis.com');
    const json = await t.app.inject({ method: 'GET', url: '/api/public/book-copy/types/' });
    expect(json.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    for (const answer of [page, json]) {
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['x-frame-options']).toBe('DENY');
      // The origin alone, same-origin too: a reset page's calls must not carry its code (security-headers.ts).
      expect(answer.headers['referrer-policy']).toBe('strict-origin');
      expect(answer.headers['strict-transport-security']).toBeUndefined(); // only in production
    }
    const cookie = await t.login(DEMO.client);
    expect((await t.app.inject({ method: 'GET', url: '/api/client/cart', headers: { cookie } })).headers['cache-control']).toBe('no-store');
    const admin = await t.login(DEMO.admin);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/employee/statistics/', headers: { cookie: admin } })).headers['cache-control'],
    ).toBe('no-store');
  });

  it('rate-limits anonymous contact messages per address, shared through the database', async () => {
    const send = (remoteAddress: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/public/contact/',
        remoteAddress,
        payload: { userName: 'A', account: 'a@b.co', message: 'Hi' },
      });
    const answers = [];
    for (let i = 0; i < 21; i++) answers.push((await send('203.0.113.200')).statusCode);
    expect(answers.filter((s) => s === 200)).toHaveLength(20);
    const refused = await send('203.0.113.200');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json().error.code).toBe('RATE_LIMITED');
    expect((await send('203.0.113.201')).statusCode).toBe(200);
  });
});

describe('production configuration', () => {
  const production = {
    NODE_ENV: 'production',
    DATABASE_URL: 'postgresql://x@localhost/x',
    JWT_SECRET: 'a'.repeat(40),
    FIREBASE_PROJECT_ID: 'real-shop',
    FIREBASE_WEB_API_KEY: 'AIzaSyRealShopKey',
    PUBLIC_URL: 'https://shop.example.com',
    MAIL_DISABLED: 'true',
    TRUST_PROXY: '1',
  };
  const problem = (env: Record<string, string>) => {
    try {
      loadConfig({ ...production, ...env });
      return null;
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
  };

  it('refuses to start without an SMTP setting unless mail is explicitly turned off', () => {
    expect(problem({ MAIL_DISABLED: '' })).toMatch(/SMTP_URL \(or SMTP_HOST\) must be set in production/);
    expect(problem({ MAIL_DISABLED: '', SMTP_URL: 'smtp://mail:1025' })).toMatch(/MAIL_FROM must be set in production/);
    expect(problem({ MAIL_DISABLED: '', SMTP_URL: 'smtp://mail:1025', MAIL_FROM: 'Shop <orders@shop.example.com>' })).toBeNull();
    expect(
      loadConfig({
        ...production,
        MAIL_DISABLED: '',
        SMTP_HOST: 'smtp.example.com',
        SMTP_USER: 'u',
        SMTP_PASSWORD: 'p',
        MAIL_FROM: 'x@y.z',
      }).mail?.smtp,
    ).toEqual({
      host: 'smtp.example.com',
      port: 587,
      secure: false,
      auth: { user: 'u', pass: 'p' },
    });
  });

  it("refuses to start without PUBLIC_URL: links must never come from a request's Host header", () => {
    expect(problem({})).toBeNull();
    expect(problem({ PUBLIC_URL: '' })).toMatch(/PUBLIC_URL must be set in production/);
  });

  it('refuses plain http and COOKIE_SECURE=false in production but for a shop on this machine (the compose demo)', () => {
    expect(problem({ PUBLIC_URL: 'http://shop.example.com' })).toMatch(/PUBLIC_URL must be https in production/);
    expect(problem({ PUBLIC_URL: 'http://localhost.example.com' })).toMatch(/PUBLIC_URL must be https in production/);
    expect(problem({ COOKIE_SECURE: 'false' })).toMatch(/COOKIE_SECURE=false is for a shop on this machine only/);
    for (const local of ['http://localhost:3000', 'http://127.0.0.1:8080', 'http://[::1]:3000']) {
      expect(problem({ PUBLIC_URL: local, COOKIE_SECURE: 'false' }), local).toBeNull();
    }
  });

  it('requires a second factor of Admins (STAFF_MFA) in production, not in the local demo (SEED_DEMO), development or the tests', () => {
    expect(loadConfig(production).staffMfa).toBe('required');
    expect(loadConfig({ ...production, SEED_DEMO: 'true', PUBLIC_URL: 'http://localhost:3000' }).staffMfa).toBe('optional');
    expect(loadConfig({ ...production, STAFF_MFA: 'optional' }).staffMfa).toBe('optional');
    expect(loadConfig({ DATABASE_URL: production.DATABASE_URL }).staffMfa).toBe('optional');
    expect(loadConfig({ NODE_ENV: 'test', DATABASE_URL: production.DATABASE_URL, STAFF_MFA: 'required' }).staffMfa).toBe('required');
    expect(problem({ STAFF_MFA: 'sometimes' })).toMatch(/STAFF_MFA/);
  });

  it('refuses SMTP settings that would be ignored: SMTP_URL beside SMTP_HOST, a port, login or TLS choice without SMTP_HOST', () => {
    const mail = { MAIL_DISABLED: '', MAIL_FROM: 'Bookshop <orders@shop.example.com>' };
    expect(problem({ ...mail, SMTP_URL: 'smtp://mail.example.com', SMTP_HOST: 'other.example.com' })).toMatch(
      /SMTP_URL and SMTP_HOST are both set/,
    );
    expect(problem({ ...mail, SMTP_URL: 'smtp://mail.example.com', SMTP_USER: 'shop', SMTP_PASSWORD: 'secret' })).toMatch(
      /SMTP_USER, SMTP_PASSWORD go with SMTP_HOST \(SMTP_URL carries its own\), which is not set/,
    );
    expect(problem({ ...mail, SMTP_PORT: '2525' })).toMatch(/SMTP_PORT goes with SMTP_HOST/);
    expect(problem({ ...mail, SMTP_HOST: 'mail.example.com', SMTP_PASSWORD: 'secret' })).toMatch(/SMTP_PASSWORD goes with SMTP_USER/);
    expect(
      loadConfig({ ...production, ...mail, SMTP_HOST: 'mail.example.com', SMTP_PORT: '2525', SMTP_USER: 'shop' }).mail?.smtp,
    ).toMatchObject({
      host: 'mail.example.com',
      port: 2525,
    });
  });

  it('refuses a log level pino does not know, before the database is touched (pino would refuse it only after the migrations and the seed)', () => {
    expect(problem({ LOG_LEVEL: 'warning' })).toMatch(
      /LOG_LEVEL must be equal to one of the allowed values: fatal, error, warn, info, debug, trace, silent/,
    );
    expect(loadConfig({ ...production, LOG_LEVEL: 'warn' }).logLevel).toBe('warn');
  });

  /** The compose demo's own settings: on this machine, with the emulator allowed. */
  const localDemo = { PUBLIC_URL: 'http://localhost:3000', COOKIE_SECURE: 'false', ALLOW_IDENTITY_EMULATOR: 'true' };

  it('refuses the demo Web API key without the emulator: the server calls the provider with it, and every sign-up would fail', () => {
    expect(problem({ FIREBASE_WEB_API_KEY: 'demo-api-key' })).toMatch(/FIREBASE_WEB_API_KEY must be set in production/);
    const { FIREBASE_WEB_API_KEY: _key, ...withoutKey } = production;
    expect(() => loadConfig(withoutKey)).toThrow(/FIREBASE_WEB_API_KEY must be set in production/);
    expect(problem({ FIREBASE_WEB_API_KEY: 'demo-api-key', ...localDemo, FIREBASE_AUTH_EMULATOR_HOST: 'identity:9099' })).toBeNull();
  });

  it('serves the metrics in production only with METRICS_TOKEN, of 32 characters at least (observability.test.ts checks the bearer)', () => {
    expect(loadConfig(production).metrics).toEqual({ access: 'off' });
    expect(loadConfig({ ...production, METRICS_TOKEN: '' }).metrics).toEqual({ access: 'off' });
    expect(loadConfig({ ...production, METRICS_TOKEN: 'm'.repeat(32) }).metrics).toEqual({ access: 'token', token: 'm'.repeat(32) });
    expect(problem({ METRICS_TOKEN: 'short' })).toMatch(/METRICS_TOKEN must be at least 32 characters/);
    expect(loadConfig({ DATABASE_URL: production.DATABASE_URL }).metrics).toEqual({ access: 'open' });
  });

  it('refuses the identity emulator unless explicitly allowed', () => {
    expect(problem({ FIREBASE_AUTH_EMULATOR_HOST: 'identity:9099' })).toMatch(/ALLOW_IDENTITY_EMULATOR=true/);
    expect(problem({ ...localDemo, FIREBASE_AUTH_EMULATOR_HOST: 'identity:9099' })).toBeNull();
  });

  it("refuses the local demo's settings where others can reach the shop: published passwords, tokens the emulator never signed", () => {
    const demo = { ...localDemo, SEED_DEMO: 'true', FIREBASE_AUTH_EMULATOR_HOST: 'identity:9099' };
    expect(problem(demo)).toBeNull();
    for (const here of ['https://localhost', 'http://127.0.0.1:8080', 'https://[::1]:3443']) {
      expect(problem({ ...demo, PUBLIC_URL: here, COOKIE_SECURE: '' }), here).toBeNull();
    }
    // Compose behind https at a real address (COOKIE_SECURE=true in .env, as its comment says).
    const published = { ...demo, PUBLIC_URL: 'https://shop.example.com', COOKIE_SECURE: 'true' };
    expect(problem(published)).toMatch(/SEED_DEMO=true is for a demo on this machine only/);
    expect(problem(published)).toMatch(/ALLOW_IDENTITY_EMULATOR=true is for a demo on this machine only/);
    expect(problem({ ...published, SEED_DEMO: 'false' })).toMatch(/^(?!.*SEED_DEMO).*ALLOW_IDENTITY_EMULATOR=true is for a demo/s);
    expect(problem({ SEED_DEMO: 'true' })).toMatch(/SEED_DEMO=true is for a demo on this machine only/);
    // A host that only begins like this machine's is not it.
    expect(problem({ SEED_DEMO: 'true', PUBLIC_URL: 'https://localhost.example.com' })).toMatch(/SEED_DEMO=true/);
  });

  it('wants TRUST_PROXY said in production: behind a proxy unset, every client would share its address and its limits', () => {
    expect(problem({ TRUST_PROXY: '' })).toMatch(/TRUST_PROXY must be set in production/);
    expect(problem({ TRUST_PROXY: 'false' })).toBeNull();
    expect(loadConfig({ ...production, TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ NODE_ENV: 'development', DATABASE_URL: production.DATABASE_URL }).trustProxy).toBe(false);
  });

  it('refuses TRUST_PROXY=true and takes a hop count or CIDRs', () => {
    expect(problem({ TRUST_PROXY: 'true' })).toMatch(/TRUST_PROXY/);
    expect(loadConfig({ ...production, TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ ...production, TRUST_PROXY: '10.0.0.0/8, fd00::/8' }).trustProxy).toEqual(['10.0.0.0/8', 'fd00::/8']);
  });

  it('names every variable that is wrong at once, and takes an empty value as unset', () => {
    expect(problem({ PORT: '99999', DATABASE_POOL_SIZE: 'ten', ISBN_LOOKUP: 'library' })).toBe(
      'Invalid configuration:\n- PORT must be <= 65535\n- DATABASE_POOL_SIZE must be integer\n' +
        '- ISBN_LOOKUP must be equal to one of the allowed values: bundled, openlibrary',
    );
    expect(problem({ DATABASE_URL: '' })).toBe('Invalid configuration:\n- DATABASE_URL must be set');
    expect(loadConfig({ ...production, PORT: '', DATABASE_REPLICA_URL: '' })).toMatchObject({ port: 3000, databaseReplicaUrl: null });
  });

  it('wants the wait for a database connection shorter than a request’s time budget', () => {
    expect(problem({ DATABASE_CONNECT_TIMEOUT_MS: '10000' })).toMatch(
      /DATABASE_CONNECT_TIMEOUT_MS must be shorter than REQUEST_TIMEOUT_MS/,
    );
    expect(problem({ DATABASE_CONNECT_TIMEOUT_MS: '5000', REQUEST_TIMEOUT_MS: '4000' })).toMatch(/DATABASE_CONNECT_TIMEOUT_MS/);
    expect(loadConfig({ ...production, DATABASE_CONNECT_TIMEOUT_MS: '9000' }).database.connectTimeoutMs).toBe(9000);
  });

  it('wants ADMIN_EMAIL and ADMIN_PASSWORD together', () => {
    expect(problem({ ADMIN_EMAIL: 'boss@shop.example' })).toMatch(/ADMIN_EMAIL and ADMIN_PASSWORD/);
  });
});

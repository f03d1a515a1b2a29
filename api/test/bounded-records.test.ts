// No stranger can fill the database or break sign-in: refused requests are recorded once per kind,
// address and window with a count (and a crowded window shares one row), nothing is recorded for a
// path that does not exist, old records leave after RETENTION_DAYS, and a burst of wrong passwords
// on one account gets 401s and 429s, never a deadlock.
import { describe, expect, it, vi } from 'vitest';
import { CROWDED_AFTER } from '../src/modules/security/security-events.ts';
import { SIGN_INS_PER_ACCOUNT_HOUR } from '../src/modules/sessions/login-throttle.ts';
import { SESSIONS_PER_ACCOUNT } from '../src/modules/sessions/session-service.ts';
import { createTestApp, DEMO } from './helpers.ts';

const t = await createTestApp();

const eventRows = async () => Number((await t.db.query<{ n: string }>('SELECT count(*) AS n FROM security_events'))[0]!.n);
const countedSince = async (id: number) =>
  Number(
    (
      await t.db.query<{ n: string }>(
        "SELECT coalesce(sum(count), 0) AS n FROM security_events WHERE id > $1 AND type <> 'backoffice_write'",
        [id],
      )
    )[0]!.n,
  );
const lastId = async () => Number((await t.db.query<{ id: string }>('SELECT coalesce(max(id), 0) AS id FROM security_events'))[0]!.id);

/** Sends `total` requests, `atOnce` at a time. */
async function flood(total: number, atOnce: number, send: (i: number) => Promise<{ statusCode: number }>) {
  const statuses = new Map<number, number>();
  for (let i = 0; i < total; i += atOnce) {
    const answers = await Promise.all(Array.from({ length: Math.min(atOnce, total - i) }, (_, k) => send(i + k)));
    for (const { statusCode } of answers) statuses.set(statusCode, (statuses.get(statusCode) ?? 0) + 1);
  }
  return statuses;
}

const crossSite = (remoteAddress: string, url = '/api/public/contact/') =>
  t.app.inject({
    method: 'POST',
    url,
    remoteAddress,
    headers: { origin: 'https://evil.example' },
    payload: { userName: 'a', account: 'a@b.co', message: 'x' },
  });

describe('refused requests', () => {
  it('10,000 from one address and 10,000 from as many addresses add a bounded number of rows whose counts add up; the shop keeps answering', {
    timeout: 180_000,
  }, async () => {
    const rowsBefore = await eventRows();
    const since = await lastId();
    const fromOne = await flood(10_000, 50, () => crossSite('203.0.113.9'));
    // The contact form's rate limit answers first once it is reached, so most are 429s: throttled before they are recorded.
    expect([...fromOne.keys()].sort()).toEqual([403, 429]);
    const fromMany = await flood(10_000, 50, (i) => crossSite(`198.${18 + (i >> 16)}.${(i >> 8) & 255}.${i & 255}`));
    expect([...fromMany.keys()]).toEqual([403]);

    // At most two windows (the flood may cross a boundary), two kinds, and a crowded window's shared row.
    expect((await eventRows()) - rowsBefore).toBeLessThanOrEqual(2 * 2 * (CROWDED_AFTER + 2));
    expect(await countedSince(since)).toBe(20_000);
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
  });

  it('records nothing for a path that does not exist', async () => {
    const before = await lastId();
    expect((await crossSite('203.0.113.10', '/api/public/no-such-thing')).statusCode).toBe(404);
    expect(await lastId()).toBe(before);
  });
});

describe('retention', () => {
  it('purges security events, finished or dead imports, sent e-mails, read notices and contact messages past RETENTION_DAYS, staff writes past AUDIT_RETENTION_DAYS, erases the data of people deleted that long ago, and keeps the rest', async () => {
    await t.db.query(`SELECT set_config('bookshop.retention', 'on', false)`);
    const [old] = await t.db.query<{ id: string }>(
      `INSERT INTO security_events (type, actor, address, at, last_at, bucket) VALUES ('login_failed', 'x@y.z', '1.2.3.4', now() - interval '100 days', now() - interval '100 days', now() - interval '100 days') RETURNING id`,
    );
    const [recent] = await t.db.query<{ id: string }>(
      `INSERT INTO security_events (type, actor, address, bucket) VALUES ('login_failed', 'x@y.z', '1.2.3.5', now()) RETURNING id`,
    );
    const employee = `{"operation": "delete", "changed": ["email"], "before": {"email": "gone@shop.example", "first_name": "Gone"}, "after": null}`;
    const [deleted] = await t.db.query<{ id: string }>(
      `INSERT INTO security_events (type, actor, entity, entity_id, details, at) VALUES ('backoffice_write', 'employee:1', 'Employee', '999', $1::jsonb, now() - interval '100 days') RETURNING id`,
      [employee],
    );
    const [created] = await t.db.query<{ id: string }>(
      `INSERT INTO security_events (type, actor, entity, entity_id, details, at) VALUES ('backoffice_write', 'employee:1', 'Employee', '999', $1::jsonb, now() - interval '200 days') RETURNING id`,
      [employee.replace('"delete"', '"insert"')],
    );
    // Staff writes: an order's status change past AUDIT_RETENTION_DAYS (730), and one well within it.
    const orderWrite = (age: string) =>
      t.db.query<{ id: string }>(
        `INSERT INTO security_events (type, actor, entity, entity_id, details, at)
         VALUES ('backoffice_write', 'employee:1', 'Order', '1', '{"operation": "update", "changed": ["status"]}', now() - $1::interval) RETURNING id`,
        [age],
      );
    const [pastAudit] = await orderWrite('731 days');
    const [withinAudit] = await orderWrite('700 days');
    const [sentLongAgo] = await t.db.query<{ id: string }>(
      `INSERT INTO mail_outbox (kind, client_id, sent_at) VALUES ('password_changed', 1, now() - interval '100 days') RETURNING id`,
    );
    const [waiting] = await t.db.query<{ id: string }>(
      `INSERT INTO mail_outbox (kind, client_id) VALUES ('password_changed', 1) RETURNING id`,
    );
    // Import jobs: one finished long ago, one whose instance died mid-run long ago (it stays 'running'),
    // and one running now.
    const job = (status: string, age: string) =>
      t.db.query<{ id: number }>(
        `INSERT INTO import_jobs (actor, status, summary, plan, created_at, updated_at, finished_at)
         VALUES ('employee:1', $1, '{}', '[]', now() - $2::interval, now() - $2::interval, CASE WHEN $1 = 'done' THEN now() - $2::interval END)
         RETURNING id`,
        [status, age],
      );
    const jobs = [...(await job('done', '100 days')), ...(await job('running', '100 days')), ...(await job('running', '1 minute'))];
    // Notices: one read long ago, one read lately, and one unread long ago (the bell still counts it).
    const notice = (createdAgo: string, readAgo: string | null) =>
      t.db.query<{ id: number }>(
        `INSERT INTO notices (client_id, book_copy_id, created_at, read_at)
         VALUES (1, (SELECT min(id) FROM book_copies), now() - $1::interval, now() - $2::interval) RETURNING id`,
        [createdAgo, readAgo],
      );
    const notices = [
      ...(await notice('120 days', '100 days')),
      ...(await notice('120 days', '1 day')),
      ...(await notice('100 days', null)),
    ];
    // Contact messages: one received long ago, one lately.
    const messages = await t.db.query<{ id: number }>(
      `INSERT INTO contact_messages (user_name, account, message, created_at)
       VALUES ('Old', 'old@example.com', 'hi', now() - interval '100 days'), ('New', 'new@example.com', 'hi', now() - interval '1 day')
       RETURNING id`,
    );
    await t.db.query(`SELECT set_config('bookshop.retention', '', false)`);
    // Nobody else may change or remove an entry.
    await expect(t.db.query('DELETE FROM security_events WHERE id = $1', [old!.id])).rejects.toThrow(/append-only/);

    const report = await t.app.retention.run();
    expect(report).toMatchObject({ ran: true });
    const mails = await t.db.query<{ id: string }>('SELECT id FROM mail_outbox WHERE id = ANY($1::bigint[])', [
      [sentLongAgo!.id, waiting!.id],
    ]);
    expect(mails.map((m) => m.id)).toEqual([waiting!.id]);
    const jobsLeft = await t.db.query<{ id: number }>('SELECT id FROM import_jobs WHERE id = ANY($1::int[])', [jobs.map((j) => j.id)]);
    expect(jobsLeft.map((j) => j.id)).toEqual([jobs[2]!.id]);
    const noticesLeft = await t.db.query<{ id: number }>('SELECT id FROM notices WHERE id = ANY($1::int[]) ORDER BY id', [
      notices.map((n) => n.id),
    ]);
    expect(noticesLeft.map((n) => n.id)).toEqual([notices[1]!.id, notices[2]!.id]);
    const messagesLeft = await t.db.query<{ id: number }>('SELECT id FROM contact_messages WHERE id = ANY($1::int[])', [
      messages.map((m) => m.id),
    ]);
    expect(messagesLeft.map((m) => m.id)).toEqual([messages[1]!.id]);
    const left = await t.db.query<{ id: string; details: Record<string, unknown> | null }>(
      'SELECT id, details FROM security_events WHERE id = ANY($1::bigint[]) ORDER BY id',
      [[old!.id, recent!.id, deleted!.id, created!.id, pastAudit!.id, withinAudit!.id]],
    );
    expect(left.map((r) => r.id)).toEqual([recent!.id, deleted!.id, created!.id, withinAudit!.id]);
    expect(report.auditWrites).toBeGreaterThanOrEqual(1);
    for (const row of left.slice(1, 3)) {
      expect(row.details).toMatchObject({ erased: true, changed: ['email'] });
      expect(JSON.stringify(row.details)).not.toMatch(/gone@shop/);
    }
  });
});

describe('retention of a backlog', () => {
  it('purges more than a batch a transaction at a time: no statement grows with the backlog (each must end within the time limit)', async () => {
    const batch = 5_000;
    await t.db.query(`
      CREATE TABLE purge_log (tab text, tx bigint, n int);
      CREATE FUNCTION log_purge() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO purge_log SELECT TG_TABLE_NAME, txid_current(), count(*) FROM gone;
        RETURN NULL;
      END $$;
      CREATE TRIGGER log_mail_purge AFTER DELETE ON mail_outbox REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION log_purge();
      CREATE TRIGGER log_notice_purge AFTER DELETE ON notices REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION log_purge();
      INSERT INTO mail_outbox (kind, client_id, sent_at)
        SELECT 'password_changed', 1, now() - interval '100 days' FROM generate_series(1, ${batch + 7});
      INSERT INTO notices (client_id, book_copy_id, created_at, read_at)
        SELECT 1, id, now() - interval '120 days', now() - interval '100 days' FROM book_copies ORDER BY id LIMIT ${batch + 3}`);
    try {
      const report = await t.app.retention.run();
      expect(report).toMatchObject({ ran: true });
      expect(report.mails).toBeGreaterThanOrEqual(batch + 7);
      expect(report.notices).toBeGreaterThanOrEqual(batch + 3);
      const statements = await t.db.query<{ tab: string; transactions: number; most: number; rows: number }>(
        'SELECT tab, count(DISTINCT tx)::int AS transactions, max(n) AS most, sum(n)::int AS rows FROM purge_log GROUP BY tab ORDER BY tab',
      );
      for (const table of statements) {
        expect(table.most).toBeLessThanOrEqual(batch);
        expect(table.transactions).toBeGreaterThanOrEqual(Math.ceil(table.rows / batch));
      }
      expect(statements.map((s) => s.tab)).toEqual(['mail_outbox', 'notices']);
      expect(await t.db.query("SELECT 1 FROM mail_outbox WHERE sent_at < now() - interval '90 days'")).toHaveLength(0);
      expect(await t.db.query("SELECT 1 FROM notices WHERE read_at < now() - interval '90 days'")).toHaveLength(0);
    } finally {
      await t.db.query(
        'DROP TRIGGER log_mail_purge ON mail_outbox; DROP TRIGGER log_notice_purge ON notices; DROP FUNCTION log_purge(); DROP TABLE purge_log',
      );
    }
  });
});

describe('sign-in under a burst', () => {
  it('an address locked for too many failures adds no row however many new account names it tries', { timeout: 120_000 }, async () => {
    const remoteAddress = '198.51.100.7';
    const login = (account: string) =>
      t.app.inject({ method: 'POST', url: '/api/public/authentication/login', remoteAddress, payload: { account, password: 'wrong' } });
    const counters = async () => Number((await t.db.query<{ n: string }>('SELECT count(*) AS n FROM throttle_counters'))[0]!.n);
    const { perAddress } = t.app.loginThrottle.limits;
    const statuses = await flood(perAddress, 5, (i) => login(`nobody-${i}@example.com`));
    expect([...statuses]).toEqual([[401, perAddress]]);
    const rows = await counters();
    const refused = await flood(40, 5, (i) => login(`someone-new-${i}@example.com`));
    expect([...refused]).toEqual([[429, 40]]);
    expect(await counters()).toBe(rows);
  });

  it('240 concurrent wrong passwords on one account (12 addresses at once, then one address 8 at a time): only 401s and 429s', {
    timeout: 120_000,
  }, async () => {
    const login = (remoteAddress: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/public/authentication/login',
        remoteAddress,
        payload: { account: DEMO.client.account, password: 'wrong-password' },
      });
    const spread = await Promise.all(Array.from({ length: 12 }, (_, i) => login(`192.0.2.${i}`)));
    const burst = await flood(228, 8, () => login('192.0.2.200'));
    const statuses = new Set([...spread.map((r) => r.statusCode), ...burst.keys()]);
    expect([...statuses].sort()).toEqual([401, 429]);
    // A password change under the same burst of wrong current passwords: the same.
    const employee = await t.login(DEMO.seller);
    const changes = await Promise.all(
      Array.from({ length: 40 }, () =>
        t.app.inject({
          method: 'PUT',
          url: '/api/employee/password/',
          headers: { cookie: employee },
          payload: { oldPassword: 'wrong-password', newPassword: 'Another-Password-42' },
        }),
      ),
    );
    // Refused by the throttle, or by the account's day of ten changes (right or wrong), whichever comes first.
    expect([...new Set(changes.map((r) => r.statusCode))].sort()).toEqual([400, 429]);
    const codes = new Set(changes.map((r) => r.json().error.code));
    expect(codes).toContain('WRONG_PASSWORD');
    for (const code of codes) expect(['WRONG_PASSWORD', 'TOO_MANY_ATTEMPTS', 'RATE_LIMITED']).toContain(code);
  });
});

describe('a loop of right sign-ins', () => {
  it(`ends at ${SIGN_INS_PER_ACCOUNT_HOUR} an hour for one account, refused before its password is checked; another account still signs in`, {
    timeout: 120_000,
  }, async () => {
    const looping = await t.newClient();
    const signIn = (account: string) =>
      t.app.inject({ method: 'POST', url: '/api/public/authentication/login', payload: { account, password: DEMO.client.password } });
    // newClient signed in once already.
    for (let i = 1; i < SIGN_INS_PER_ACCOUNT_HOUR; i++) expect((await signIn(looping.account)).statusCode).toBe(200);
    const checks = vi.spyOn(t.app.passwords, 'verify');
    try {
      const refused = await signIn(looping.account);
      expect(refused.statusCode, refused.body).toBe(429);
      expect(refused.json().error.message).toMatch(/^Too many sign-ins\. Please try again in \d+ minutes?\.$/);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // Each right sign-in is a bcrypt check the whole shop shares: the refusal spent none.
      expect(checks).not.toHaveBeenCalled();
      const other = await t.newClient();
      expect((await signIn(other.account)).statusCode).toBe(200);
      // A password reset (whoever looped had the password) forgets the count: the owner signs in.
      await t.app.loginThrottle.forgetAccount(looping.account);
      expect((await signIn(looping.account)).statusCode).toBe(200);
    } finally {
      checks.mockRestore();
    }
  });
});

describe('sessions', () => {
  it(`a loop of sign-ins to one account keeps ${SESSIONS_PER_ACCOUNT} sessions: an ended one goes first, then the least recently used`, {
    timeout: 60_000,
  }, async () => {
    const client = await t.newClient();
    const first = client.cookie;
    const signIn = () => t.login({ account: client.account, password: DEMO.client.password });
    const sessions = [first];
    while (sessions.length < SESSIONS_PER_ACCOUNT) sessions.push(await signIn());
    const cart = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/client/cart', headers: { cookie } });
    // One of them signs out: the next sign-in past the cap ends that one, not the oldest still open.
    const signedOut = sessions[10]!;
    expect(
      (await t.app.inject({ method: 'DELETE', url: '/api/public/authentication/cookies/', headers: { cookie: signedOut } })).statusCode,
    ).toBe(200);
    const count = async () =>
      (
        await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM session_families WHERE audience = 'client' AND subject_id = $1", [
          client.id,
        ])
      )[0]!.n;
    await signIn();
    expect(await count()).toBe(SESSIONS_PER_ACCOUNT);
    expect((await cart(first)).statusCode).toBe(200);
    // The next ends the least recently used: the first.
    const last = await signIn();
    expect(await count()).toBe(SESSIONS_PER_ACCOUNT);
    expect((await cart(first)).statusCode).toBe(401);
    expect((await cart(last)).statusCode).toBe(200);
  });
});

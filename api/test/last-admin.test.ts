// The shop always keeps an Admin, even when two Admins demote each other at the same moment: the
// Admins' rows are locked before the rule is checked, so the second change sees the one Admin left.
// Its own database: it leaves one of its two Admins a Seller.
import pg from 'pg';
import { expect, it } from 'vitest';
import { createTestApp, DEMO, untilStatementsWaitOnLocks } from './helpers.ts';

const t = await createTestApp();

it('two Admins demoting each other at once: one change is made, the other refused, one Admin is left', { timeout: 60_000 }, async () => {
  const [{ id: adminId }] = (await t.db.query<{ id: number }>('SELECT id FROM employees WHERE email = $1', [DEMO.admin.account])) as [
    { id: number },
  ];
  const other = await t.newEmployee({ role: 'Admin' });
  const otherId = other.id;
  expect((await t.db.query("SELECT 1 FROM employees WHERE role = 'Admin'")).length).toBe(2);
  const first = await t.login(DEMO.admin);
  const second = await t.login(other);

  // Held from outside, the Admins' rows keep both changes waiting until both have passed their role check.
  const holder = new pg.Client({ connectionString: t.db.url });
  await holder.connect();
  await holder.query('BEGIN');
  await holder.query("SELECT id FROM employees WHERE role = 'Admin' FOR UPDATE");
  const demote = (cookie: string, id: number) =>
    t.app.inject({ method: 'PUT', url: `/api/employee/${id}/role`, headers: { cookie }, payload: { role: 'Seller' } });
  const answers = Promise.all([demote(first, otherId), demote(second, adminId)]);
  await untilStatementsWaitOnLocks(t.db, 2);
  await holder.query('COMMIT');
  await holder.end();

  const statuses = (await answers).map((answer) => answer.statusCode).sort();
  expect(statuses).toEqual([200, 409]);
  const refused = (await answers).find((answer) => answer.statusCode === 409)!;
  expect(refused.json().error.message).toBe('The shop must keep at least one Admin.');
  expect((await t.db.query("SELECT 1 FROM employees WHERE role = 'Admin'")).length).toBe(1);
});

it('a Seller made the only Admin with a second factor while their demotion waited is not demoted: the change reads their role as it is', {
  timeout: 60_000,
}, async () => {
  const [acting] = await t.db.query<{ email: string }>("SELECT email FROM employees WHERE role = 'Admin' ORDER BY id LIMIT 1");
  const cookie = await t.login({ account: acting!.email, password: DEMO.admin.password });
  const who = await t.newEmployee({ role: 'Seller' });
  await t.db.query("INSERT INTO employee_totp (employee_id, secret, confirmed_at) VALUES ($1, 'set-up', localtimestamp)", [who.id]);
  expect(await t.db.query("SELECT 1 FROM employees e JOIN employee_totp f ON f.employee_id = e.id WHERE e.role = 'Admin'")).toHaveLength(0);

  // Another Admin's promotion, not yet committed, holds the employee's row while the demotion is asked.
  const holder = new pg.Client({ connectionString: t.db.url });
  await holder.connect();
  await holder.query('BEGIN');
  await holder.query("UPDATE employees SET role = 'Admin' WHERE id = $1", [who.id]);
  const demotion = t.app.inject({ method: 'PUT', url: `/api/employee/${who.id}/role`, headers: { cookie }, payload: { role: 'Seller' } });
  await untilStatementsWaitOnLocks(t.db, 1);
  await holder.query('COMMIT');
  await holder.end();

  const refused = await demotion;
  expect(refused.statusCode, refused.body).toBe(409);
  expect(refused.json().error.message).toBe(
    'This is the only Admin with a second factor. Another Admin must set one up before this one stops being an Admin.',
  );
  expect((await t.db.query<{ role: string }>('SELECT role::text FROM employees WHERE id = $1', [who.id]))[0]!.role).toBe('Admin');
});

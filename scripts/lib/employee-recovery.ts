// An operator's way back in for an employee locked out of the back-office. An Admin sets another
// employee's password and resets their second factor, but the last Admin who lost their password or
// their second factor (with its recovery codes) has no one to ask. Run where DATABASE_URL reaches the
// shop's database (docs/operations.md): a new password, printed once, and every factor and session of
// theirs gone, in one transaction; a security event and the "password changed" e-mail say it happened.
import pg from 'pg';
import { escapeLike } from '../../api/src/lib/text.ts';
import { assertAcceptablePassword, passwordHasher } from '../../api/src/modules/accounts/passwords.ts';
import { newRecoveryCodes } from '../../api/src/modules/second-factor/codes.ts';

export class RecoveryError extends Error {}

const FACTOR_TABLES = ['employee_totp', 'employee_passkeys', 'employee_recovery_codes'] as const;

export async function recoverEmployee(url: string, email: string, bcryptCost: number) {
  // 16 characters of an alphabet without look-alikes (79 random bits), as a recovery code is made.
  const password = newRecoveryCodes(1)[0]!;
  assertAcceptablePassword(password, email);
  const hash = await passwordHasher(bcryptCost).hash(password);
  // UTC, as the API's sessions write the timestamps (plugins/prisma.ts).
  const db = new pg.Client({ connectionString: url, application_name: 'bookshop-recovery', options: '-c TimeZone=UTC' });
  await db.connect();
  try {
    await db.query('BEGIN');
    // The audit log names who wrote the employee's row: the operator, not an employee of the shop.
    await db.query("SELECT set_config('bookshop.audit_actor', 'operator', true)");
    const { rows } = await db.query<{ id: number; email: string; role: string }>(
      'UPDATE employees SET password_hash = $2 WHERE lower(email) = lower($1) RETURNING id, email, role::text',
      [email.trim(), hash],
    );
    const employee = rows[0];
    if (!employee) throw new RecoveryError(`No employee signs in as ${email}.`);
    for (const table of FACTOR_TABLES) await db.query(`DELETE FROM ${table} WHERE employee_id = $1`, [employee.id]);
    // The failures counted against them, as an Admin's reset and a password reset forget them: an Admin
    // locked out by wrong codes (a day's lock) would still be refused with the new password and app.
    const secondFactor = `employee:${employee.id}`;
    await db.query('DELETE FROM throttle_counters WHERE key = ANY($1::text[]) OR key LIKE $2 OR key LIKE $3', [
      [
        `second-factor:account:${secondFactor}`,
        `second-factor:day:${secondFactor}`,
        `password:account:${employee.email}`,
        `password:day:${employee.email}`,
      ],
      `second-factor:pair:${escapeLike(secondFactor)}|%`,
      `password:pair:${escapeLike(employee.email)}|%`,
    ]);
    await db.query(
      "UPDATE session_families SET revoked_at = now() WHERE audience = 'employee' AND subject_id = $1 AND revoked_at IS NULL",
      [employee.id],
    );
    await db.query(
      `INSERT INTO security_events (type, actor, entity, entity_id, details)
       VALUES ('second_factor_reset', 'operator', 'Employee', $1, '{"by": "scripts/recover-employee", "password": "replaced"}')`,
      [String(employee.id)],
    );
    await db.query("INSERT INTO mail_outbox (kind, employee_id) VALUES ('password_changed', $1)", [employee.id]);
    await db.query('COMMIT');
    return { ...employee, password };
  } catch (error) {
    await db.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    await db.end();
  }
}

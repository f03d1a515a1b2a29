// The operator's way back in for a locked-out employee (scripts/recover-employee.ts): a new password
// that signs in, every second factor and session of theirs gone, recorded, and nothing at all for an
// e-mail no employee signs in with.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordHasher } from '../api/src/modules/accounts/passwords.ts';
import { emptyTestDatabase } from './empty-test-database.ts';
import { RecoveryError, recoverEmployee } from './lib/employee-recovery.ts';
import { applyMigrations } from './lib/schema-engine.ts';

let database: Awaited<ReturnType<typeof emptyTestDatabase>>;
let db: pg.Client;
beforeAll(async () => {
  database = await emptyTestDatabase('recovery');
  await applyMigrations(database.url);
  db = new pg.Client({ connectionString: database.url });
  await db.connect();
});
afterAll(async () => {
  await db.end();
  await database.drop();
});

const count = async (sql: string, values: unknown[]) => Number((await db.query<{ n: string }>(sql, values)).rows[0]!.n);

describe('npm run staff:recover', () => {
  it('gives the last Admin a new password, and takes their app, passkeys, recovery codes and sessions, in one go', async () => {
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO employees (first_name, last_name, gender, birth_date, email, phone_number, address, password_hash, role)
       VALUES ('Ann', 'Owner', 'Female', '1980-01-01', 'owner@shop.example', '0555000000', '1 Main Street', 'a lost password', 'Admin')
       RETURNING id`,
    );
    const id = rows[0]!.id;
    await db.query("INSERT INTO employee_totp (employee_id, secret, last_step) VALUES ($1, 'v1.sealed.secret.tag', 0)", [id]);
    await db.query(
      "INSERT INTO employee_passkeys (employee_id, credential_id, public_key, name) VALUES ($1, 'cred-1', '\\x00', 'Laptop')",
      [id],
    );
    await db.query("INSERT INTO employee_recovery_codes (employee_id, code_hash) VALUES ($1, 'spent-hash')", [id]);
    await db.query(
      "INSERT INTO session_families (id, audience, subject_id) VALUES (gen_random_uuid(), 'employee', $1), (gen_random_uuid(), 'employee', $1)",
      [id],
    );

    // A day's lock by wrong codes, and wrong passwords from an address; another account's count stays.
    const counters = [
      `second-factor:day:employee:${id}`,
      `second-factor:pair:employee:${id}|203.0.113.5`,
      'password:account:owner@shop.example',
      'password:account:other@shop.example',
    ];
    for (const key of counters)
      await db.query(
        "INSERT INTO throttle_counters (key, hits, window_ends_at, last_hit_at) VALUES ($1, 30, now() + interval '1 day', now())",
        [key],
      );

    const recovered = await recoverEmployee(database.url, ' Owner@Shop.Example ', 4);
    expect(recovered).toMatchObject({ id, email: 'owner@shop.example', role: 'Admin' });
    const [{ password_hash }] = (await db.query('SELECT password_hash FROM employees WHERE id = $1', [id])).rows;
    expect((await passwordHasher(4).verify(recovered.password, password_hash)).ok).toBe(true);
    for (const table of ['employee_totp', 'employee_passkeys', 'employee_recovery_codes'])
      expect(await count(`SELECT count(*) AS n FROM ${table} WHERE employee_id = $1`, [id]), table).toBe(0);
    expect(
      await count("SELECT count(*) AS n FROM session_families WHERE subject_id = $1 AND audience = 'employee' AND revoked_at IS NULL", [
        id,
      ]),
    ).toBe(0);
    const events = await db.query("SELECT actor, entity_id FROM security_events WHERE type = 'second_factor_reset'");
    expect(events.rows).toEqual([{ actor: 'operator', entity_id: String(id) }]);
    expect(await count("SELECT count(*) AS n FROM mail_outbox WHERE kind = 'password_changed' AND employee_id = $1", [id])).toBe(1);
    expect((await db.query('SELECT key FROM throttle_counters WHERE key = ANY($1::text[])', [counters])).rows).toEqual([
      { key: 'password:account:other@shop.example' },
    ]);
  });

  it('changes nothing for an e-mail no employee signs in with', async () => {
    const before = await count('SELECT count(*) AS n FROM security_events', []);
    await expect(recoverEmployee(database.url, 'nobody@shop.example', 4)).rejects.toBeInstanceOf(RecoveryError);
    expect(await count('SELECT count(*) AS n FROM security_events', [])).toBe(before);
  });
});

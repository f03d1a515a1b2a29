// What a production start checks about accounts, before serving: nobody signs in with a password
// published in the README, and a fresh deployment gets its first Admin from the environment
// (ADMIN_EMAIL, ADMIN_PASSWORD) instead of from the demo seed.

import { EMAIL } from '@bookshop/rules';
import pg from 'pg';
import type { Config } from '../../api/src/config.ts';
import { assertAcceptablePassword, DEFAULT_HASHING_LIMITS, passwordHasher } from '../../api/src/modules/accounts/passwords.ts';
import { DEMO_ACCOUNTS, seedClientAccounts } from '../../seed/seed-data.ts';

export class AccountSetupError extends Error {}

/** The hasher's comparisons at once: it queues only a few more, then refuses (busy). */
const CHECKS_AT_ONCE = DEFAULT_HASHING_LIMITS.concurrent;
const DEMO_PASSWORDS = [DEMO_ACCOUNTS.admin.password, DEMO_ACCOUNTS.seller.password, DEMO_ACCOUNTS.client.password];

export async function prepareProductionAccounts(url: string, config: Config, log: (message: string) => void = console.log) {
  const hasher = passwordHasher(config.bcryptCost);
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    const { rows: employees } = await db.query<{ email: string; password_hash: string }>('SELECT email, password_hash FROM employees');
    if (employees.length === 0 && config.initialAdmin) {
      const email = config.initialAdmin.email.trim().toLowerCase();
      if (!EMAIL.test(email)) throw new AccountSetupError(`ADMIN_EMAIL '${email}' is not an e-mail address`);
      try {
        assertAcceptablePassword(config.initialAdmin.password, email);
      } catch (error) {
        throw new AccountSetupError(`ADMIN_PASSWORD is refused: ${(error as Error).message}`);
      }
      await db
        .query(
          `INSERT INTO employees (first_name, last_name, gender, birth_date, email, phone_number, address, password_hash, role)
           VALUES ('Shop', 'Admin', 'Female', '1970-01-01', $1, '0500000000', 'To be completed on the Account screen', $2, 'Admin')`,
          [email, await hasher.hash(config.initialAdmin.password)],
        )
        .catch((error: Error) => {
          throw new AccountSetupError(`could not create the first Admin ${email}: ${error.message}`);
        });
      log(`created the first Admin, ${email}: complete its details on the back-office Account screen`);
      return;
    }
    if (employees.length === 0) {
      log('no employee can sign in to the back-office yet: set ADMIN_EMAIL and ADMIN_PASSWORD to create the first Admin');
      return;
    }
    // Said, or an operator who set them after the first start (or beside SEED_DEMO, which seeds the
    // demo staff first) waits for an account that never comes.
    if (config.initialAdmin) {
      log('ADMIN_EMAIL and ADMIN_PASSWORD are not used: they make the first Admin of a shop without employees, and this one has some');
    }
    if (config.seedDemo) {
      log('SEED_DEMO=true: the demo accounts and their published passwords are allowed (a local demo only)');
      return;
    }
    // Every employee against every published password, and the seed's clients (every client is too
    // many to check, and only the seed makes those accounts, all with the demo client's password): one
    // of each password hash among them, as the seed gave them all one, so changing the demo client's
    // password alone leaves the 299 others found. Four at a time, the hasher's own limit (more at once
    // it refuses: busy), not one after another: each costs a quarter of a second at cost 12, and a
    // start waits for them inside the start-up lock, so every replica after the first does too.
    const { rows: demoClients } = await db.query<{ account: string; password_hash: string }>(
      `SELECT DISTINCT ON (password_hash) account, password_hash FROM clients WHERE account = ANY($1::text[])
       ORDER BY password_hash, account = $2 DESC, account`,
      [seedClientAccounts(), DEMO_ACCOUNTS.client.email],
    );
    // The seed gave its clients the demo client's password alone: theirs are checked against it only.
    const checks = [
      ...employees.flatMap((e) => DEMO_PASSWORDS.map((password) => ({ who: `the employee ${e.email}`, hash: e.password_hash, password }))),
      ...demoClients.map((c) => ({ who: `the client ${c.account}`, hash: c.password_hash, password: DEMO_ACCOUNTS.client.password })),
    ];
    let who: string | undefined;
    let next = 0;
    await Promise.all(
      Array.from({ length: CHECKS_AT_ONCE }, async () => {
        while (who === undefined && next < checks.length) {
          const check = checks[next++]!;
          if ((await hasher.verify(check.password, check.hash)).ok) who ??= check.who;
        }
      }),
    );
    if (who) {
      throw new AccountSetupError(
        `${who} still has a demo password published in the README: change it (back-office Account screen, ` +
          'or a new ADMIN_EMAIL/ADMIN_PASSWORD on an empty database), or set SEED_DEMO=true for a local demo',
      );
    }
  } finally {
    await db.end();
  }
}

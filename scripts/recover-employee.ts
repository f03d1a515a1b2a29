// `npm run staff:recover -- EMAIL` (in the image: `node scripts/recover-employee.js EMAIL`): an employee
// locked out of the back-office, the last Admin above all, gets a new password, printed once, and
// loses every second factor and session (scripts/lib/employee-recovery.ts).
import { RecoveryError, recoverEmployee } from './lib/employee-recovery.ts';

const email = process.argv[2];
if (!email) {
  console.error('Usage: npm run staff:recover -- EMAIL   (the e-mail the employee signs in with)');
  process.exit(1);
}
// The API's own cost in production; BCRYPT_COST as the API reads it when set.
const bcryptCost = Number(process.env.BCRYPT_COST || 12);
if (!Number.isInteger(bcryptCost) || bcryptCost < 10 || bcryptCost > 15) {
  console.error(`BCRYPT_COST must be a whole number from 10 to 15, as the API takes it (it is ${JSON.stringify(process.env.BCRYPT_COST)})`);
  process.exit(1);
}

async function recover(url: string) {
  try {
    const recovered = await recoverEmployee(url, email!, bcryptCost);
    console.log(
      `${recovered.role} ${recovered.email}: new password ${recovered.password}\n` +
        'Every second factor and session of theirs is gone. Give them the password by a channel of its own; they sign in ' +
        'with it, change it on the Account screen, and set up a second factor again.',
    );
  } catch (error) {
    if (!(error instanceof RecoveryError)) throw error;
    console.error(error.message);
    process.exitCode = 1;
  }
}

if (process.env.DATABASE_URL) await recover(process.env.DATABASE_URL);
else {
  // A checkout with no DATABASE_URL: the development database, as the other db: commands use.
  const { withDatabase } = await import('./lib/database.ts');
  await withDatabase(recover);
}

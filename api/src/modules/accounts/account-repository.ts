import type { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../plugins/prisma.ts';
import { auditedTransaction } from '../security/audit.ts';
import { endSessions, type KeptSession } from '../sessions/session-repository.ts';

/** How often a day an employee's sign-in e-mail may change: each change e-mails the address it replaces. */
export const EMAIL_CHANGES_PER_DAY = 3;

const clientInfoSelect = { firstName: true, lastName: true, phoneNumber: true, account: true } satisfies Prisma.ClientSelect;
export const employeeInfoSelect = {
  id: true,
  firstName: true,
  lastName: true,
  gender: true,
  birthDate: true,
  email: true,
  phoneNumber: true,
  address: true,
  role: true,
  version: true,
} satisfies Prisma.EmployeeSelect;

type EmployeeInfo = Prisma.EmployeeGetPayload<{ select: typeof employeeInfoSelect }>;

/** A reset's transaction waits on the identity provider, which may take up to 8 s (plugins/identity.ts). */
const RESET_TRANSACTION_TIMEOUT_MS = 11_000;

export function accountRepository(db: Db) {
  return {
    findClientCredentials: (account: string) => db.client.findUnique({ where: { account }, select: { id: true, passwordHash: true } }),
    findEmployeeCredentials: (email: string) =>
      db.employee.findUnique({ where: { email }, select: { id: true, passwordHash: true, role: true } }),
    /** Whether a client or an employee signs in with this e-mail (login_names is kept by triggers). */
    loginNameTaken: async (name: string) => (await db.loginName.count({ where: { name } })) > 0,
    createClient: (data: Prisma.ClientCreateInput) => db.client.create({ data, select: { id: true } }),
    /**
     * The client a sign-up of this identity made since `since` whose session never started (the
     * sign-up failed after its commit: a fault, the time budget, a restart), with its password hash.
     */
    unfinishedSignUp: async (account: string, firebaseUid: string, since: Date) => {
      const [made] = await db.$queryRaw<{ id: number; passwordHash: string }[]>`
        SELECT c.id, c.password_hash AS "passwordHash" FROM clients c
        WHERE c.account = ${account} AND c.firebase_uid = ${firebaseUid} AND c.created_at > ${since}
          AND NOT EXISTS (SELECT 1 FROM session_families f WHERE f.audience = 'client' AND f.subject_id = c.id)`;
      return made ?? null;
    },
    clientInfo: (id: number) => db.client.findUnique({ where: { id }, select: clientInfoSelect }),
    updateClient: (id: number, data: { firstName: string; lastName: string; phoneNumber: string }) =>
      db.client.update({ where: { id }, data, select: clientInfoSelect }),
    /** The client's e-mail choices; `data` changes them first (a client who is gone reads null). */
    mailPreferences: async (id: number, data?: { statusEmails: boolean; backInStockEmails: boolean }) => {
      const select = { statusEmails: true, backInStockEmails: true } satisfies Prisma.ClientSelect;
      if (!data) return db.client.findUnique({ where: { id }, select });
      return (await db.client.updateManyAndReturn({ where: { id }, data, select }))[0] ?? null;
    },
    clientPasswordHash: (id: number) => db.client.findUnique({ where: { id }, select: { passwordHash: true } }),
    /**
     * A stronger hash of the password a sign-in just checked, written only while `checked` is still
     * the account's: a change or a reset committed meanwhile keeps its new password (an unconditional
     * write put the old one back). Whether it was written.
     */
    rehashPassword: async (audience: 'client' | 'employee', id: number, checked: string, rehashed: string) => {
      const where = { id, passwordHash: checked };
      const data = { passwordHash: rehashed };
      const { count } = audience === 'client' ? await db.client.updateMany({ where, data }) : await db.employee.updateMany({ where, data });
      return count === 1;
    },
    /**
     * A password change, the account's other sessions ended and its security notice e-mail, in one
     * transaction: a failure after the new password was written left those sessions live, and a retry
     * with the old password, now wrong, never ended them.
     */
    changePassword: (audience: 'client' | 'employee', id: number, passwordHash: string, keep: KeptSession) =>
      // An employee's change is audited in this transaction, not in a batch beside it (security/audit.ts).
      auditedTransaction(db, async (tx) => {
        if (audience === 'client') await tx.client.update({ where: { id }, data: { passwordHash }, select: { id: true } });
        else await tx.employee.update({ where: { id }, data: { passwordHash }, select: { id: true } });
        await endSessions(tx, audience, id, keep.sessionId);
        await keep.renew(tx);
        await tx.mailOutbox.create({
          data: { kind: 'password_changed', ...(audience === 'client' ? { clientId: id } : { employeeId: id }) },
          select: { id: true },
        });
      }),
    /**
     * A reset's shop side in one transaction: the new password, and every session of the client
     * ended. `finish` runs last, inside it (the identity provider spending the reset code): when it
     * fails, the shop keeps the old password and the sessions.
     */
    resetClientPassword: (id: number, passwordHash: string, finish: () => Promise<void>) =>
      db.$transaction(
        async (tx) => {
          await tx.client.update({ where: { id }, data: { passwordHash }, select: { id: true } });
          await endSessions(tx, 'client', id);
          await tx.mailOutbox.create({ data: { kind: 'password_changed', clientId: id }, select: { id: true } });
          await finish();
          // Longer than the provider's own time limit (plugins/identity.ts), so its answer, when it
          // comes, is not lost to a transaction that gave up first.
        },
        { timeout: RESET_TRANSACTION_TIMEOUT_MS },
      ),
    employeeInfo: (id: number) => db.employee.findUnique({ where: { id }, select: employeeInfoSelect }),
    /**
     * An employee's own information, and when it changes their e-mail (the name they sign in with) a
     * security notice to the old address, in the same transaction. The old address is read under the
     * row's lock, so two changes at once each tell the address they replaced. Each change e-mails an
     * address the employee typed, so at most EMAIL_CHANGES_PER_DAY a day: past it nothing is written,
     * and `waitSeconds` says when the oldest of the day's changes leaves the count.
     *
     * `emailProved`: whether the caller asked for proof of a new e-mail. A save that did not (its
     * e-mail was the one it read) but would now change it, the owner's proved change having committed
     * meanwhile, answers `emailMovedOn` and writes nothing: it would put the old e-mail back unproved.
     *
     * `versionRead`: the version the save read (If-Match). One no longer current answers `stale`, the
     * information now, and writes nothing (the spec's own client sends none, and saves as before).
     */
    updateEmployee: (id: number, data: Prisma.EmployeeUpdateInput & { email: string }, emailProved: boolean, versionRead?: number) =>
      // Audited as the employee's own write: the actor is named in this transaction, not in a batch beside it.
      auditedTransaction(
        db,
        async (
          tx,
        ): Promise<{ updated: EmployeeInfo | null } | { waitSeconds: number } | { emailMovedOn: true } | { stale: EmployeeInfo }> => {
          const [before] = await tx.$queryRaw<{ email: string; version: number }[]>`
          SELECT email, version FROM employees WHERE id = ${id} FOR UPDATE`;
          if (!before) return { updated: null };
          if (versionRead !== undefined && before.version !== versionRead) {
            return { stale: await tx.employee.findUniqueOrThrow({ where: { id }, select: employeeInfoSelect }) };
          }
          const emailChanges = before.email !== data.email;
          if (emailChanges && !emailProved) return { emailMovedOn: true };
          if (emailChanges) {
            // A statement of its own, after the lock: under READ COMMITTED it sees the notices of changes
            // that held the lock before this one (in the locking statement it would not).
            const [day] = await tx.$queryRaw<{ changes: number; waitSeconds: number }[]>`
            SELECT count(*)::int AS changes,
                   coalesce(extract(epoch FROM min(created_at) + interval '1 day' - localtimestamp), 0)::float8 AS "waitSeconds"
            FROM mail_outbox
            WHERE employee_id = ${id} AND kind = 'email_changed' AND created_at > localtimestamp - interval '1 day'`;
            if (day!.changes >= EMAIL_CHANGES_PER_DAY) return { waitSeconds: Math.max(1, Math.ceil(day!.waitSeconds)) };
          }
          const updated = await tx.employee.update({ where: { id }, data, select: employeeInfoSelect });
          if (emailChanges) {
            await tx.mailOutbox.create({
              data: { kind: 'email_changed', employeeId: id, payload: { previousAddress: before.email, newAddress: updated.email } },
              select: { id: true },
            });
          }
          return { updated };
        },
      ),
    employeePasswordHash: (id: number) => db.employee.findUnique({ where: { id }, select: { passwordHash: true } }),
  };
}

// The second factor's rows: the authenticator app, passkeys, recovery codes, the short-lived
// challenges, and the moment a session last proved a factor.
import { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../plugins/prisma.ts';
import { PASSWORD_FINGERPRINT_SQL } from '../accounts/passwords.ts';
import { endSessions, type KeptSession, lockAccount } from '../sessions/session-repository.ts';

/** An employee with a confirmed authenticator app or a passkey. */
export const HAS_FACTOR = { OR: [{ totp: { secret: { not: null } } }, { passkeys: { some: {} } }] } satisfies Prisma.EmployeeWhereInput;
/** What a removal takes: the authenticator app, one passkey, or every factor (an Admin's reset). */
export type FactorRemoval = 'app' | 'all' | { passkeyId: number };
/** Thrown inside a removal's transaction to roll it back: it would leave no Admin with a factor. */
class LeavesNoAdminFactor extends Error {}
const passkeySelect = { id: true, name: true, createdAt: true, lastUsedAt: true } as const;

/**
 * What follows, in its transaction, any change to how an employee signs in: recovery codes in place
 * of the old (when `codeHashes` is given), and the end of their sessions but the one that made the
 * change (ASVS 7.4.3). In the same transaction, as a removal's: ended after the change committed, a
 * failure between the two left a thief's session live after the owner's new factor or codes.
 */
async function changedHowTheySignIn(tx: Prisma.TransactionClient, employeeId: number, codeHashes: string[] | null, keepSessionId: string) {
  if (codeHashes) {
    await tx.employeeRecoveryCode.deleteMany({ where: { employeeId } });
    await tx.employeeRecoveryCode.createMany({ data: codeHashes.map((codeHash) => ({ employeeId, codeHash })) });
  }
  await endSessions(tx, 'employee', employeeId, keepSessionId);
}

export function secondFactorRepository(db: Db) {
  return {
    /** What the employee has: a confirmed app, a pending setup, their passkeys, unused recovery codes. */
    async factors(employeeId: number) {
      const row = await db.employee.findUnique({
        where: { id: employeeId },
        select: {
          email: true,
          role: true,
          totp: { select: { secret: true, pendingSecret: true, lastStep: true } },
          passkeys: { select: passkeySelect, orderBy: { id: 'asc' } },
          _count: { select: { recoveryCodes: { where: { usedAt: null } } } },
        },
      });
      if (!row) return null;
      return {
        email: row.email,
        role: row.role,
        totp: row.totp,
        passkeys: row.passkeys,
        recoveryCodesLeft: row._count.recoveryCodes,
        hasFactor: !!row.totp?.secret || row.passkeys.length > 0,
      };
    },

    /** Whether the employee has a confirmed app or a passkey: one statement, for the gates. */
    hasFactor: async (employeeId: number) => (await db.employee.count({ where: { id: employeeId, ...HAS_FACTOR } })) > 0,

    setPendingTotp: (employeeId: number, pendingSecret: string) =>
      db.employeeTotp.upsert({
        where: { employeeId },
        create: { employeeId, pendingSecret },
        update: { pendingSecret },
        select: { employeeId: true },
      }),
    /**
     * The pending secret becomes the app's; codes up to `step` are spent. With it, in one transaction,
     * the first factor's recovery codes (`codeHashes`), the end of every session but `keep`'s, and the
     * renewal of `keep`'s tokens.
     */
    confirmTotp: (employeeId: number, secret: string, step: number, codeHashes: string[] | null, keep: KeptSession) =>
      db.$transaction(async (tx) => {
        await lockAccount(tx, 'employee', employeeId);
        await tx.employeeTotp.update({
          where: { employeeId },
          data: { secret, pendingSecret: null, confirmedAt: new Date(), lastStep: step },
          select: { employeeId: true },
        });
        await changedHowTheySignIn(tx, employeeId, codeHashes, keep.sessionId);
        await keep.renew(tx);
      }),
    /** Spends a step, only if no one spent it or a later one meanwhile: of two racing uses one wins. */
    spendTotpStep: async (employeeId: number, step: number) =>
      (await db.employeeTotp.updateMany({ where: { employeeId, lastStep: { lt: step } }, data: { lastStep: step } })).count === 1,

    passkeysForSignIn: (employeeId: number) =>
      db.employeePasskey.findMany({ where: { employeeId }, select: { credentialId: true, transports: true } }),
    passkeyByCredential: (credentialId: string) =>
      db.employeePasskey.findUnique({
        where: { credentialId },
        select: { id: true, employeeId: true, credentialId: true, publicKey: true, counter: true, transports: true },
      }),
    /** A new passkey, as `confirmTotp` adds an app: with the first factor's codes, the other sessions ended, and `keep`'s renewed. */
    addPasskey: (
      passkey: { employeeId: number; credentialId: string; publicKey: Uint8Array; counter: number; transports: string[]; name: string },
      codeHashes: string[] | null,
      keep: KeptSession,
    ) =>
      db.$transaction(async (tx) => {
        await lockAccount(tx, 'employee', passkey.employeeId);
        const added = await tx.employeePasskey.create({
          data: { ...passkey, publicKey: Buffer.from(passkey.publicKey), counter: BigInt(passkey.counter) },
          select: passkeySelect,
        });
        await changedHowTheySignIn(tx, passkey.employeeId, codeHashes, keep.sessionId);
        await keep.renew(tx);
        return added;
      }),
    /**
     * Records a use of the passkey with the signature counter its answer carried; false when another use
     * has meanwhile stored one as high or higher. The answer's check compared the counter with the one
     * read before it, so two answers checked at once both passed it, and the later write could put the
     * counter back: compared here in the write, it only goes up, and a cloned authenticator's answer
     * that lost the race is refused. A passkey that counts nothing (0, as synced ones) stays at 0.
     */
    passkeyUsed: async (id: number, counter: number) => {
      const storedCounter = counter === 0 ? { equals: 0n } : { lt: BigInt(counter) };
      const { count } = await db.employeePasskey.updateMany({
        where: { id, counter: storedCounter },
        data: { counter: BigInt(counter), lastUsedAt: new Date() },
      });
      return count === 1;
    },
    renamePasskey: async (employeeId: number, id: number, name: string) =>
      (await db.employeePasskey.updateMany({ where: { id, employeeId }, data: { name } })).count === 1,

    /** New recovery codes in place of the old, and every session but `keepSessionId` ended, in one transaction. */
    replaceRecoveryCodes: (employeeId: number, hashes: string[], keepSessionId: string) =>
      db.$transaction(async (tx) => {
        await lockAccount(tx, 'employee', employeeId);
        await changedHowTheySignIn(tx, employeeId, hashes, keepSessionId);
      }),
    /** Spends an unused code of this employee; false when there is none such (wrong, or used). */
    spendRecoveryCode: async (employeeId: number, codeHash: string) =>
      (await db.employeeRecoveryCode.updateMany({ where: { employeeId, codeHash, usedAt: null }, data: { usedAt: new Date() } })).count ===
      1,

    /**
     * Removes an employee's authenticator app (a pending setup too), one passkey, or every factor, and
     * their recovery codes once no factor is left, unless that leaves no Admin with a second factor:
     * then nothing is removed ('last'). The Admins' rows are locked first, as a role change locks them,
     * so two Admins removing their own last factors at once (or one while being demoted) are decided
     * one after the other, and the second sees the first's change. False when there was nothing of the
     * kind to remove. What it removes ends the employee's sessions but `keepSessionId` (null: all).
     */
    removeKeepingAnAdminFactor: (employeeId: number, removal: FactorRemoval, keepSessionId: string | null) =>
      db
        .$transaction(async (tx) => {
          // NO KEY UPDATE, as a row's own update takes: a factor's or a challenge's insert, which holds
          // its employee's row FOR KEY SHARE, goes on meanwhile (FOR UPDATE made them wait, and with a
          // renewal of codes, deadlocked). The employee's own row too, so their removals take turns.
          const locked = await tx.$queryRaw<{ id: number; role: string }[]>`
            SELECT id, role::text FROM employees WHERE role = 'Admin' OR id = ${employeeId} ORDER BY id FOR NO KEY UPDATE`;
          const hasFactor = async () => (await tx.employee.count({ where: { id: employeeId, ...HAS_FACTOR } })) > 0;
          const isAdmin = locked.some((row) => row.id === employeeId && row.role === 'Admin');
          const adminWithFactor = isAdmin && (await hasFactor());
          const where = { employeeId };
          let removed: boolean;
          if (removal === 'app') {
            // A setup never confirmed was no way to sign in: removing it alone ends no session. One
            // statement, which sees a confirmation committed while it waited for the row.
            const apps = await tx.$queryRaw<{ confirmed: boolean }[]>`
              DELETE FROM employee_totp WHERE employee_id = ${employeeId} RETURNING secret IS NOT NULL AS confirmed`;
            removed = apps.some((app) => app.confirmed);
          } else if (removal === 'all') {
            const apps = await tx.employeeTotp.deleteMany({ where });
            const passkeys = await tx.employeePasskey.deleteMany({ where });
            removed = apps.count + passkeys.count > 0;
          } else removed = (await tx.employeePasskey.deleteMany({ where: { ...where, id: removal.passkeyId } })).count === 1;
          // `removed` also counts an app confirmed while the delete waited for it, after the read above.
          if (
            (adminWithFactor || (isAdmin && removal === 'app' && removed)) &&
            (await tx.employee.count({ where: { role: 'Admin', ...HAS_FACTOR } })) === 0
          )
            throw new LeavesNoAdminFactor();
          if (!(await hasFactor())) await tx.employeeRecoveryCode.deleteMany({ where });
          // The employee's sessions end with it, in the same transaction: ended after a removal that
          // committed, a failure between the two left them live, and a retry, finding nothing left to
          // remove, was refused before it ended them (a lost device's thief kept the session). An
          // Admin's reset (no session kept) ends them even when a removal of the employee's own got
          // there first and left it nothing to remove.
          if (removed || keepSessionId === null) {
            await endSessions(tx, 'employee', employeeId, keepSessionId);
          }
          return removed;
        })
        .catch((error: unknown) => {
          if (error instanceof LeavesNoAdminFactor) return 'last' as const;
          throw error;
        }),

    putChallenge: async (challenge: {
      key: string;
      purpose: string;
      employeeId: number | null;
      webauthn: string | null;
      /** The sign-in step's (openSignIn). */
      passwordFingerprint?: string;
      expiresAt: Date;
    }) => {
      const { key, ...rest } = challenge;
      await db.signInChallenge.upsert({
        where: { tokenHash: key },
        create: { tokenHash: key, ...rest },
        update: rest,
        select: { tokenHash: true },
      });
    },
    /** The sign-in step's passkey challenge, only while the step is live; false when it is not (spent, or past its end). */
    setSignInStepPasskeyChallenge: async (key: string, webauthn: string) =>
      (
        await db.signInChallenge.updateMany({
          where: { tokenHash: key, purpose: 'second_factor', expiresAt: { gt: new Date() } },
          data: { webauthn },
        })
      ).count === 1,
    /** Whether the employee's password hash is still the one this fingerprint names (passwords.ts). */
    passwordIs: async (employeeId: number, fingerprint: string) =>
      (
        await db.$queryRaw<unknown[]>`
          SELECT 1 FROM employees WHERE id = ${employeeId} AND ${Prisma.raw(PASSWORD_FINGERPRINT_SQL)} = ${fingerprint}`
      ).length === 1,
    findChallenge: (key: string) =>
      db.signInChallenge.findUnique({
        where: { tokenHash: key },
        select: { purpose: true, employeeId: true, webauthn: true, passwordFingerprint: true, expiresAt: true },
      }),
    /** Records a challenge as answered until it ends; true for the one caller that recorded it (a challenge is used once). */
    spendChallenge: async (key: string, purpose: string, expiresAt: Date) =>
      (await db.signInChallenge.createMany({ data: [{ tokenHash: key, purpose, expiresAt }], skipDuplicates: true })).count === 1,
    /**
     * Deletes a challenge, only while it is still `webauthn` when one is given (new options replace it
     * under the same key); true for the one caller that deleted it (a challenge is used once).
     */
    takeChallenge: async (key: string, webauthn?: string) =>
      (await db.signInChallenge.deleteMany({ where: { tokenHash: key, ...(webauthn !== undefined && { webauthn }) } })).count === 1,
    purgeChallenges: () => db.signInChallenge.deleteMany({ where: { expiresAt: { lt: new Date() } } }),

    /**
     * Reserves one of a session's wrong step-up answers before the answer is checked, as the login
     * throttle does, so a burst at once gets no more than `limit`; false when none is left (or the
     * session has ended).
     */
    reserveStepUp: async (familyId: string, limit: number) =>
      (
        await db.sessionFamily.updateMany({
          where: { id: familyId, revokedAt: null, stepUpFailures: { lt: limit } },
          data: { stepUpFailures: { increment: 1 } },
        })
      ).count === 1,
    /** A right answer: the session's wrong ones are forgotten. */
    stepUpSucceeded: (familyId: string) => db.sessionFamily.updateMany({ where: { id: familyId }, data: { stepUpFailures: 0 } }),
    /** An answer that could not be checked (the check failed): its reservation is given back. */
    releaseStepUp: (familyId: string) =>
      db.sessionFamily.updateMany({ where: { id: familyId, stepUpFailures: { gt: 0 } }, data: { stepUpFailures: { decrement: 1 } } }),
    /** A wrong answer keeps its reservation; at `limit` the session ends. True when this one ended it. */
    stepUpFailed: async (familyId: string, limit: number) =>
      (
        await db.sessionFamily.updateMany({
          where: { id: familyId, revokedAt: null, stepUpFailures: { gte: limit } },
          data: { revokedAt: new Date() },
        })
      ).count === 1,

    /** When the session last proved a second factor, and the generation of its tokens since. */
    secondFactorProof: (familyId: string) =>
      db.sessionFamily.findUnique({ where: { id: familyId }, select: { secondFactorAt: true, generation: true } }),
    markSecondFactor: (familyId: string, at: Date) =>
      db.sessionFamily.updateMany({ where: { id: familyId }, data: { secondFactorAt: at } }),
  };
}

export type SecondFactorRepository = ReturnType<typeof secondFactorRepository>;

// The second factor's rows: the authenticator app, passkeys, recovery codes, the short-lived
// challenges, and the moment a session last proved a factor.
import type { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../plugins/prisma.ts';

/** An employee with a confirmed authenticator app or a passkey. */
const HAS_FACTOR = { OR: [{ totp: { secret: { not: null } } }, { passkeys: { some: {} } }] } satisfies Prisma.EmployeeWhereInput;
const passkeySelect = { id: true, name: true, createdAt: true, lastUsedAt: true } as const;

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

    /** Admins other than this one who have a second factor. */
    otherAdminsWithFactor: (employeeId: number) =>
      db.employee.count({
        where: {
          id: { not: employeeId },
          role: 'Admin',
          ...HAS_FACTOR,
        },
      }),

    setPendingTotp: (employeeId: number, pendingSecret: string) =>
      db.employeeTotp.upsert({
        where: { employeeId },
        create: { employeeId, pendingSecret },
        update: { pendingSecret },
        select: { employeeId: true },
      }),
    /** The pending secret becomes the app's; codes up to `step` are spent. */
    confirmTotp: (employeeId: number, secret: string, step: number) =>
      db.employeeTotp.update({
        where: { employeeId },
        data: { secret, pendingSecret: null, confirmedAt: new Date(), lastStep: step },
        select: { employeeId: true },
      }),
    /** Spends a step, only if no one spent it or a later one meanwhile: of two racing uses one wins. */
    spendTotpStep: async (employeeId: number, step: number) =>
      (await db.employeeTotp.updateMany({ where: { employeeId, lastStep: { lt: step } }, data: { lastStep: step } })).count === 1,
    removeTotp: (employeeId: number) => db.employeeTotp.deleteMany({ where: { employeeId } }),

    passkeysForSignIn: (employeeId: number) =>
      db.employeePasskey.findMany({ where: { employeeId }, select: { credentialId: true, transports: true } }),
    passkeyByCredential: (credentialId: string) =>
      db.employeePasskey.findUnique({
        where: { credentialId },
        select: { id: true, employeeId: true, credentialId: true, publicKey: true, counter: true, transports: true },
      }),
    addPasskey: (passkey: {
      employeeId: number;
      credentialId: string;
      publicKey: Uint8Array;
      counter: number;
      transports: string[];
      name: string;
    }) =>
      db.employeePasskey.create({
        data: { ...passkey, publicKey: Buffer.from(passkey.publicKey), counter: BigInt(passkey.counter) },
        select: passkeySelect,
      }),
    passkeyUsed: (id: number, counter: number) =>
      db.employeePasskey.update({ where: { id }, data: { counter: BigInt(counter), lastUsedAt: new Date() }, select: { id: true } }),
    renamePasskey: async (employeeId: number, id: number, name: string) =>
      (await db.employeePasskey.updateMany({ where: { id, employeeId }, data: { name } })).count === 1,
    removePasskey: async (employeeId: number, id: number) =>
      (await db.employeePasskey.deleteMany({ where: { id, employeeId } })).count === 1,

    replaceRecoveryCodes: (employeeId: number, hashes: string[]) =>
      db.$transaction([
        db.employeeRecoveryCode.deleteMany({ where: { employeeId } }),
        db.employeeRecoveryCode.createMany({ data: hashes.map((codeHash) => ({ employeeId, codeHash })) }),
      ]),
    /** Spends an unused code of this employee; false when there is none such (wrong, or used). */
    spendRecoveryCode: async (employeeId: number, codeHash: string) =>
      (await db.employeeRecoveryCode.updateMany({ where: { employeeId, codeHash, usedAt: null }, data: { usedAt: new Date() } })).count ===
      1,
    removeRecoveryCodes: (employeeId: number) => db.employeeRecoveryCode.deleteMany({ where: { employeeId } }),

    /** Every factor of the employee, and their recovery codes, at once (an Admin's reset). */
    removeAll: (employeeId: number) =>
      db.$transaction([
        db.employeeTotp.deleteMany({ where: { employeeId } }),
        db.employeePasskey.deleteMany({ where: { employeeId } }),
        db.employeeRecoveryCode.deleteMany({ where: { employeeId } }),
      ]),

    putChallenge: async (challenge: {
      key: string;
      purpose: string;
      employeeId: number | null;
      webauthn: string | null;
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
    findChallenge: (key: string) =>
      db.signInChallenge.findUnique({
        where: { tokenHash: key },
        select: { purpose: true, employeeId: true, webauthn: true, expiresAt: true },
      }),
    /** Deletes a challenge; true for the one caller that deleted it (a challenge is used once). */
    takeChallenge: async (key: string) => (await db.signInChallenge.deleteMany({ where: { tokenHash: key } })).count === 1,
    purgeChallenges: () => db.signInChallenge.deleteMany({ where: { expiresAt: { lt: new Date() } } }),

    secondFactorAt: async (familyId: string) =>
      (await db.sessionFamily.findUnique({ where: { id: familyId }, select: { secondFactorAt: true } }))?.secondFactorAt ?? null,
    markSecondFactor: (familyId: string, at: Date) =>
      db.sessionFamily.updateMany({ where: { id: familyId }, data: { secondFactorAt: at } }),
  };
}

export type SecondFactorRepository = ReturnType<typeof secondFactorRepository>;

// Sign-in for clients and employees, client sign-up, and both kinds of own-account maintenance.
import { checkProfile, checkResetRequest, checkSignUp, FORM_MESSAGES, isFilled } from '@bookshop/rules';
import { refuse } from '../../lib/refusals.ts';
import type { KeptSession } from '../sessions/session-repository.ts';
import type { accountRepository } from './account-repository.ts';
import { assertAcceptablePassword, type PasswordHasher, passwordFingerprint } from './passwords.ts';

/**
 * A password that checked out, and the fingerprint of its hash as found (or as rehashed): the session
 * it opens, at once or after an employee's second factor, starts only while that is still the
 * account's hash (sessions.start), so a reset or a change that lands while the old password is being
 * checked, or between the sign-in's two steps, ends it too.
 */
export type LoginResult =
  | { audience: 'client'; userType: 'Client'; id: number; passwordFingerprint: string }
  | { audience: 'employee'; userType: 'Admin' | 'Seller'; id: number; passwordFingerprint: string };

export interface VerifiedIdentity {
  uid: string;
  email: string | undefined;
  emailVerified: boolean;
}

export interface SignUpFields {
  firstName: string;
  lastName: string;
  phoneNumber: string;
  account: string;
  password: string;
}

export const normalizeAccount = (account: string) => account.trim().toLowerCase();

/**
 * How long a sign-up whose client was made but whose session never started (its answer lost) may be
 * finished by the same identity sending it again with the same password.
 */
const UNFINISHED_SIGN_UP_MS = 60 * 60_000;

/** The unique key of login_names (kept by triggers) refused an e-mail another account took meanwhile. */
export const isLoginNameClash = (error: unknown) => {
  const e = error as { code?: string; meta?: Record<string, unknown>; message?: string } | null;
  return e?.code === 'P2002' || /login_names_pkey/.test(String(e?.message ?? '')) || /login_names/.test(JSON.stringify(e?.meta ?? {}));
};

export function accountService(repo: ReturnType<typeof accountRepository>, passwords: PasswordHasher) {
  const passwordHashOf = (audience: 'client' | 'employee', id: number) =>
    audience === 'client' ? repo.clientPasswordHash(id) : repo.employeePasswordHash(id);
  return {
    async login(accountInput: string, password: string): Promise<LoginResult> {
      const account = normalizeAccount(accountInput);
      // One namespace: an e-mail is a client's or an employee's, never both.
      const client = await repo.findClientCredentials(account);
      const employee = client ? null : await repo.findEmployeeCredentials(account);
      // The check runs even for an unknown account, so timing does not tell which part was wrong.
      const check = await passwords.verify(password, client?.passwordHash ?? employee?.passwordHash);
      if (!check.ok) throw refuse.invalidLogin();
      // A password that checks out belongs to one of the two; verify refuses a missing hash.
      const found = client ?? employee;
      if (!found?.passwordHash) throw refuse.invalidLogin();
      const audience = client ? 'client' : 'employee';
      // The hash the session will start under: the rehash, or, when a change or a reset replaced the
      // checked one meanwhile, the checked one (and sessions.start refuses it).
      let passwordHash = found.passwordHash;
      if (check.needsRehash) {
        const rehashed = await passwords.hash(password);
        if (await repo.rehashPassword(audience, found.id, found.passwordHash, rehashed)) passwordHash = rehashed;
        else {
          // Another sign-in's rehash (the same password), or a new password: the hash now is the one
          // to start under, if this password is still its.
          const now = (await passwordHashOf(audience, found.id))?.passwordHash;
          if (now && (await passwords.verify(password, now)).ok) passwordHash = now;
        }
      }
      const checked = passwordFingerprint(passwordHash);
      if (client) return { audience: 'client', userType: 'Client', id: client.id, passwordFingerprint: checked };
      return { audience: 'employee', userType: employee!.role, id: employee!.id, passwordFingerprint: checked };
    },

    /** Spec 5's sign-up rules, checked before the identity provider so the form's errors come first. */
    validateSignUp(input: {
      firstName?: string;
      lastName?: string;
      phoneNumber?: string;
      account?: string;
      password?: string;
    }): SignUpFields {
      const { problem, values } = checkSignUp(input);
      if (problem !== null) throw refuse.form(problem);
      assertAcceptablePassword(values.password, input.account);
      return { ...values, account: normalizeAccount(values.account) };
    },

    async signUp(input: SignUpFields, identity: VerifiedIdentity) {
      if (!identity.emailVerified) throw refuse.emailNotVerified();
      if (!identity.email || normalizeAccount(identity.email) !== input.account) {
        throw refuse.verifiedEmailMismatch();
      }
      if (await repo.loginNameTaken(input.account)) {
        // The same sign-up sent again after one whose client was made but whose answer was lost: it
        // finishes that one, as the person never saw it succeed (else "already exists" was all they got).
        const made = await repo.unfinishedSignUp(input.account, identity.uid, new Date(Date.now() - UNFINISHED_SIGN_UP_MS));
        if (made && (await passwords.verify(input.password, made.passwordHash)).ok) return { id: made.id };
        throw refuse.emailTaken();
      }
      const { password, ...client } = input;
      try {
        return await repo.createClient({ ...client, passwordHash: await passwords.hash(password), firebaseUid: identity.uid });
      } catch (error) {
        if (isLoginNameClash(error)) throw refuse.emailTaken();
        throw error;
      }
    },

    async clientInfo(id: number) {
      const info = await repo.clientInfo(id);
      if (!info) throw refuse.accountGone();
      return info;
    },

    /** Which e-mails the client gets beyond order confirmations; `choices` sets them first. */
    async mailPreferences(id: number, choices?: { statusEmails: boolean; backInStockEmails: boolean }) {
      const preferences = await repo.mailPreferences(id, choices);
      if (!preferences) throw refuse.accountGone();
      return preferences;
    },

    /** The sign-in name (e-mail) of an account, which password checks are throttled under. */
    async loginName(audience: 'client' | 'employee', id: number) {
      const name = audience === 'client' ? (await repo.clientInfo(id))?.account : (await repo.employeeInfo(id))?.email;
      if (!name) throw refuse.accountGone();
      return name;
    },

    updateClientProfile(id: number, input: { firstName?: string; lastName?: string; phoneNumber?: string }) {
      const { problem, values } = checkProfile(input);
      if (problem !== null) throw refuse.form(problem);
      return repo.updateClient(id, values);
    },

    /** The fingerprint of the password hash of the account that signs in as `account` (normalized), or null for none. */
    async passwordFingerprintOf(account: string) {
      const found = (await repo.findClientCredentials(account)) ?? (await repo.findEmployeeCredentials(account));
      return found?.passwordHash ? passwordFingerprint(found.passwordHash) : null;
    },

    /**
     * Refuses (WRONG_PASSWORD) unless `password` is the account's own: a signed-in person proving it is
     * them. The fingerprint of the hash it was right for (the browser's device cookie is signed with it).
     */
    async confirmPassword(audience: 'client' | 'employee', id: number, password: string) {
      const current = await passwordHashOf(audience, id);
      if (!current || !(await passwords.verify(password, current.passwordHash)).ok) throw refuse.wrongCurrentPassword();
      return { passwordFingerprint: passwordFingerprint(current.passwordHash) };
    },

    /**
     * A new password: every other session of the account ends with it, and the one that made the change
     * (`keep`) stays with its tokens renewed (sessions' renewal), in the same transaction. The
     * fingerprint of the new hash (this browser's device cookie is signed with it).
     */
    async changePassword(audience: 'client' | 'employee', id: number, keep: KeptSession, oldPassword?: string, newPassword?: string) {
      if (!isFilled(oldPassword) || !isFilled(newPassword)) throw refuse.passwordsMissing();
      await this.confirmPassword(audience, id, oldPassword);
      assertAcceptablePassword(newPassword, await this.loginName(audience, id));
      const passwordHash = await passwords.hash(newPassword);
      await repo.changePassword(audience, id, passwordHash, keep);
      return { passwordFingerprint: passwordFingerprint(passwordHash) };
    },

    /** Forgot password: the request's e-mail, checked by the form's rule; a bad one is refused in its words. */
    resetRequestAccount(input: { account?: string }) {
      const { problem, values } = checkResetRequest(input);
      if (problem !== null) throw refuse.form(problem);
      return values.account;
    },

    /** The id of the client who signs in with this e-mail, or null (no one, or an employee, who asks an Admin). */
    clientIdByAccount: async (email: string) => (await repo.findClientCredentials(normalizeAccount(email)))?.id ?? null,

    /** A forgotten password's replacement, once it passes the password rules like any other. */
    acceptableNewPassword(password: string | undefined, account: string): string {
      if (!isFilled(password)) throw refuse.form(FORM_MESSAGES.newPasswordRequired);
      assertAcceptablePassword(password, account);
      return password;
    },

    /** A forgotten password's reset: all or nothing across the shop and the identity provider (`spendCode`). */
    async resetClientPassword(id: number, password: string, spendCode: () => Promise<void>) {
      await repo.resetClientPassword(id, await passwords.hash(password), spendCode);
    },

    async employeeInfo(id: number) {
      const info = await repo.employeeInfo(id);
      if (!info) throw refuse.accountGone();
      return info;
    },
  };
}

export type AccountService = ReturnType<typeof accountService>;

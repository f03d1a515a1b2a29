// Sign-in for clients and employees, client sign-up, and both kinds of own-account maintenance.
import { AppError, badRequest, conflict, forbidden, notFound } from '../../lib/errors.ts';
import { ALGERIAN_PHONE, isBlank } from '../../lib/validation.ts';
import type { Db } from '../../plugins/prisma.ts';
import { accountRepository } from './account-repository.ts';
import { assertAcceptablePassword, hashPassword, verifyPassword } from './passwords.ts';

export const INVALID_LOGIN = 'Invalid account or password.';
export const SIGN_UP_PHONE_MESSAGE = 'Phone number must be Algerian and start with 05, 06, or 07.';
export const PROFILE_PHONE_MESSAGE = 'Phone number must be a valid Algerian number (e.g. 07XXXXXXXX).';

export type LoginResult =
  | { audience: 'client'; userType: 'Client'; id: number }
  | { audience: 'employee'; userType: 'Admin' | 'Seller'; id: number };

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

export function accountService(db: Db, bcryptCost: number) {
  const repo = accountRepository(db);

  return {
    async login(accountInput: string, password: string): Promise<LoginResult> {
      const account = normalizeAccount(accountInput);
      const client = await repo.findClientCredentials(account);
      if (client) {
        if (await verifyPassword(password, client.passwordHash)) return { audience: 'client', userType: 'Client', id: client.id };
        throw new AppError(401, 'INVALID_CREDENTIALS', INVALID_LOGIN);
      }
      const employee = await repo.findEmployeeCredentials(account);
      // verifyPassword runs even for an unknown account, so timing does not tell which part was wrong.
      if (await verifyPassword(password, employee?.passwordHash)) {
        return { audience: 'employee', userType: employee!.role, id: employee!.id };
      }
      throw new AppError(401, 'INVALID_CREDENTIALS', INVALID_LOGIN);
    },

    /** Spec 5's sign-up rules, checked before the identity token so the form's errors come first. */
    validateSignUp(input: {
      firstName?: string;
      lastName?: string;
      phoneNumber?: string;
      account?: string;
      password?: string;
    }): SignUpFields {
      const { firstName, lastName, phoneNumber, account, password } = input;
      if ([firstName, lastName, phoneNumber, account, password].some(isBlank)) throw badRequest('All fields are required.');
      if (!ALGERIAN_PHONE.test(phoneNumber!.trim())) throw badRequest(SIGN_UP_PHONE_MESSAGE);
      assertAcceptablePassword(password!);
      return {
        firstName: firstName!.trim(),
        lastName: lastName!.trim(),
        phoneNumber: phoneNumber!.trim(),
        account: normalizeAccount(account!),
        password: password!,
      };
    },

    async signUp(input: SignUpFields, identity: VerifiedIdentity) {
      if (!identity.emailVerified) throw forbidden('Email is not verified yet.');
      if (!identity.email || normalizeAccount(identity.email) !== input.account) {
        throw forbidden('The verified e-mail does not match the account.');
      }
      if (await repo.clientExists(input.account)) throw conflict('An account with this e-mail already exists.');
      const { password, ...client } = input;
      return repo.createClient({ ...client, passwordHash: await hashPassword(password, bcryptCost), firebaseUid: identity.uid });
    },

    async clientInfo(id: number) {
      const info = await repo.clientInfo(id);
      if (!info) throw notFound('Your account no longer exists.');
      return info;
    },

    updateClientProfile(id: number, input: { firstName?: string; lastName?: string; phoneNumber?: string }) {
      const { firstName, lastName, phoneNumber } = input;
      if ([firstName, lastName, phoneNumber].some(isBlank)) throw badRequest('All fields are required.');
      if (!ALGERIAN_PHONE.test(phoneNumber!.trim())) throw badRequest(PROFILE_PHONE_MESSAGE);
      return repo.updateClient(id, { firstName: firstName!.trim(), lastName: lastName!.trim(), phoneNumber: phoneNumber!.trim() });
    },

    async changePassword(audience: 'client' | 'employee', id: number, oldPassword?: string, newPassword?: string) {
      if (isBlank(oldPassword) || isBlank(newPassword)) throw badRequest('Please enter both current and new password.');
      const current = audience === 'client' ? await repo.clientPasswordHash(id) : await repo.employeePasswordHash(id);
      if (!current || !(await verifyPassword(oldPassword!, current.passwordHash))) {
        throw badRequest('The current password is incorrect.', 'WRONG_PASSWORD');
      }
      assertAcceptablePassword(newPassword!);
      const hash = await hashPassword(newPassword!, bcryptCost);
      await (audience === 'client' ? repo.setClientPassword(id, hash) : repo.setEmployeePassword(id, hash));
    },

    async employeeInfo(id: number) {
      const info = await repo.employeeInfo(id);
      if (!info) throw notFound('Your account no longer exists.');
      return info;
    },

    updateEmployee: repo.updateEmployee,
  };
}

export type AccountService = ReturnType<typeof accountService>;

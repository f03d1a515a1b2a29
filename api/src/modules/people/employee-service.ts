import { EMAIL, EMPLOYEE_ROLES, GENDERS, isFilled } from '@bookshop/rules';
import { parseCalendarDate } from '../../lib/dates.ts';
import { refuse } from '../../lib/refusals.ts';
import type { PersonInput } from '../../schemas/people.ts';
import { type accountRepository, EMAIL_CHANGES_PER_DAY } from '../accounts/account-repository.ts';
import { isLoginNameClash } from '../accounts/account-service.ts';
import { assertAcceptablePassword, type PasswordHasher } from '../accounts/passwords.ts';
import type { EmployeeRow, PeopleRepository } from './people-repository.ts';

export const toEmployee = ({ role, birthDate, ...e }: EmployeeRow) => ({
  ...e,
  type: role,
  birthDate: birthDate.toISOString().slice(0, 10),
});

/** Checks and normalizes the person fields of an employee (new or own account). */
function validatePerson(input: PersonInput) {
  const { firstName, lastName, gender, birthDate: birthText, email: emailText, phoneNumber, address } = input;
  const complete =
    isFilled(firstName) &&
    isFilled(lastName) &&
    isFilled(gender) &&
    isFilled(birthText) &&
    isFilled(emailText) &&
    isFilled(phoneNumber) &&
    isFilled(address);
  if (!complete) throw refuse.allFieldsRequired();
  if (!isGender(gender)) throw refuse.gender();
  const email = emailText.trim().toLowerCase();
  if (!EMAIL.test(email)) throw refuse.employeeEmail();
  const birthDate = parseCalendarDate(birthText, { minYear: 1900 });
  if (!birthDate || birthDate > new Date()) throw refuse.birthDate();
  return {
    firstName: firstName.trim(),
    lastName: lastName.trim(),
    gender,
    birthDate,
    email,
    phoneNumber: phoneNumber.trim(),
    address: address.trim(),
  };
}

const isGender = (value: string): value is (typeof GENDERS)[number] => (GENDERS as readonly string[]).includes(value);
const isRole = (value: string | undefined): value is (typeof EMPLOYEE_ROLES)[number] =>
  (EMPLOYEE_ROLES as readonly (string | undefined)[]).includes(value);

/** Another account took the e-mail between the check and the write (login_names refused it). */
const refuseTakenEmail = (error: unknown): never => {
  throw isLoginNameClash(error) ? refuse.emailTaken() : error;
};

/** The Admin's Employees screen and every employee's own account. */
export function employeeService(repo: PeopleRepository, accounts: ReturnType<typeof accountRepository>, passwords: PasswordHasher) {
  return {
    listEmployees: async () => (await repo.listEmployees()).map(toEmployee),

    async addEmployee(input: { person_informations?: PersonInput; password?: string; role?: string }) {
      const person = validatePerson(input.person_informations ?? {});
      const { role, password } = input;
      if (!isRole(role)) throw refuse.role();
      if (!isFilled(password)) throw refuse.allFieldsRequired();
      assertAcceptablePassword(password, person.email);
      if (await repo.loginNameTaken(person.email)) throw refuse.emailTaken();
      const passwordHash = await passwords.hash(password);
      return toEmployee(await repo.createEmployee({ ...person, passwordHash, role }).catch(refuseTakenEmail));
    },

    /**
     * The employee's own information. A new e-mail is a new sign-in name, so `beforeEmailChange` (the
     * step-up) must pass first: from a stolen session it would take the account, its notices going to
     * the thief's address. `versionRead`: the version the form read (If-Match), when it says; one no
     * longer current is refused (412), before any proof is asked (a stale form spends no password try
     * or step-up), and again under the row's lock.
     */
    async updateOwnInformation(id: number, input: PersonInput, beforeEmailChange: () => Promise<void>, versionRead?: number) {
      const person = validatePerson(input);
      const own = await accounts.employeeInfo(id);
      if (!own) throw refuse.accountGone();
      if (versionRead !== undefined && own.version !== versionRead) throw refuse.ownInformationChanged(toEmployee(own));
      const emailProved = person.email !== own.email;
      if (emailProved) {
        await beforeEmailChange();
        if (await repo.loginNameTaken(person.email)) throw refuse.emailTaken();
      }
      const saved = await accounts.updateEmployee(id, person, emailProved, versionRead).catch(refuseTakenEmail);
      if ('stale' in saved) throw refuse.ownInformationChanged(toEmployee(saved.stale));
      if ('emailMovedOn' in saved) throw refuse.emailChangedMeanwhile();
      if ('waitSeconds' in saved) throw refuse.tooManyEmailChanges(EMAIL_CHANGES_PER_DAY, saved.waitSeconds);
      if (!saved.updated) throw refuse.accountGone();
      return toEmployee(saved.updated);
    },

    /**
     * Another employee's role; the shop always keeps an Admin, and an Admin with a second factor.
     * `from`: the role the screen showed (beyond the spec); an employee whose role changed since keeps it.
     */
    async changeRole(actorId: number, id: number, role: string | undefined, from?: string) {
      if (!isRole(role) || (from !== undefined && !isRole(from))) throw refuse.role();
      if (id === actorId) throw refuse.changeOwnRole();
      const changed = await repo.setRoleKeepingAnAdmin(id, role, from);
      if (changed === 'last') throw refuse.lastAdmin();
      if (changed === 'lastFactor') throw refuse.demoteLastAdminWithFactor();
      if (!changed) throw refuse.noEmployee();
      if ('moved' in changed) throw refuse.roleChanged(toEmployee(changed.moved));
      return toEmployee(changed);
    },

    async deleteEmployee(actorId: number, id: number) {
      if (id === actorId) throw refuse.deleteSelf();
      if (await repo.deleteNonAdmin(id)) return;
      throw (await repo.employeeRole(id)) ? refuse.deleteAdmin() : refuse.noEmployee();
    },
  };
}

export type EmployeeService = ReturnType<typeof employeeService>;

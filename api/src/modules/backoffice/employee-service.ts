import { EMAIL, FORM_MESSAGES, isBlank } from '@bookshop/rules';
import type { Prisma } from '../../generated/prisma/client.ts';
import { parseCalendarDate } from '../../lib/dates.ts';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.ts';
import type { Db } from '../../plugins/prisma.ts';
import type { PersonInput } from '../../schemas/people.ts';
import { accountRepository, type employeeInfoSelect } from '../accounts/account-repository.ts';
import { EMAIL_TAKEN, isLoginNameClash } from '../accounts/account-service.ts';
import { assertAcceptablePassword, type PasswordHasher } from '../accounts/passwords.ts';
import { peopleRepository } from './people-repository.ts';

export const ROLES = ['Admin', 'Seller'] as const;
export const GENDERS = ['Male', 'Female'] as const;

type EmployeeRow = Prisma.EmployeeGetPayload<{ select: typeof employeeInfoSelect }>;

export const toEmployee = ({ role, birthDate, ...e }: EmployeeRow) => ({
  ...e,
  type: role,
  birthDate: birthDate.toISOString().slice(0, 10),
});

/** Checks and normalizes the person fields of an employee (new or own account). */
function validatePerson(input: PersonInput) {
  const fields = [input.firstName, input.lastName, input.gender, input.birthDate, input.email, input.phoneNumber, input.address];
  if (fields.some(isBlank)) throw badRequest(FORM_MESSAGES.allFieldsRequired);
  if (!GENDERS.includes(input.gender as never)) throw badRequest('Gender must be Male or Female.');
  const email = input.email!.trim().toLowerCase();
  if (!EMAIL.test(email)) throw badRequest(FORM_MESSAGES.emailInvalid);
  const birthDate = parseCalendarDate(input.birthDate!, { minYear: 1900 });
  if (!birthDate || birthDate > new Date()) throw badRequest('Birth date must be a real past date (YYYY-MM-DD), from 1900 on.');
  return {
    firstName: input.firstName!.trim(),
    lastName: input.lastName!.trim(),
    gender: input.gender as (typeof GENDERS)[number],
    birthDate,
    email,
    phoneNumber: input.phoneNumber!.trim(),
    address: input.address!.trim(),
  };
}

/** Another account took the e-mail between the check and the write (login_names refused it). */
const refuseTakenEmail = (error: unknown): never => {
  throw isLoginNameClash(error) ? conflict(EMAIL_TAKEN) : error;
};

/** The Admin's Employees screen and every employee's own account. */
export function employeeService(db: Db, passwords: PasswordHasher) {
  const repo = peopleRepository(db);
  const accounts = accountRepository(db);
  return {
    listEmployees: async () => (await repo.listEmployees()).map(toEmployee),

    async addEmployee(input: { person_informations?: PersonInput; password?: string; role?: string }) {
      const person = validatePerson(input.person_informations ?? {});
      if (!ROLES.includes(input.role as never)) throw badRequest('Role must be Admin or Seller.');
      if (isBlank(input.password)) throw badRequest(FORM_MESSAGES.allFieldsRequired);
      assertAcceptablePassword(input.password!, person.email);
      if (await repo.loginNameTaken(person.email)) throw conflict(EMAIL_TAKEN);
      const passwordHash = await passwords.hash(input.password!);
      return toEmployee(
        await repo.createEmployee({ ...person, passwordHash, role: input.role as (typeof ROLES)[number] }).catch(refuseTakenEmail),
      );
    },

    async updateOwnInformation(id: number, input: PersonInput) {
      const person = validatePerson(input);
      const own = await accounts.employeeInfo(id);
      if (person.email !== own?.email && (await repo.loginNameTaken(person.email))) throw conflict(EMAIL_TAKEN);
      return toEmployee(await accounts.updateEmployee(id, person).catch(refuseTakenEmail));
    },

    async deleteEmployee(actorId: number, id: number) {
      if (id === actorId) throw forbidden('You cannot delete your own account.');
      const target = await repo.employeeRole(id);
      if (!target) throw notFound('This employee does not exist.');
      if (target.role === 'Admin') throw forbidden('An Admin cannot be deleted.');
      await repo.deleteEmployee(id);
    },
  };
}

export type EmployeeService = ReturnType<typeof employeeService>;

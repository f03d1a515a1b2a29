// Clients and employees as the back-office sees them.
import type { EMPLOYEE_ROLES } from '@bookshop/rules';
import type { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../plugins/prisma.ts';
import { employeeInfoSelect } from '../accounts/account-repository.ts';
import { auditedTransaction } from '../security/audit.ts';

export const clientSelect = {
  id: true,
  firstName: true,
  lastName: true,
  phoneNumber: true,
  account: true,
  createdAt: true,
} satisfies Prisma.ClientSelect;

export type EmployeeRow = Prisma.EmployeeGetPayload<{ select: typeof employeeInfoSelect }>;

export function peopleRepository(db: Db) {
  return {
    async clientPage(skip: number, take: number) {
      const [total, clients] = await db.$transaction([
        db.client.count(),
        db.client.findMany({ select: clientSelect, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip, take }),
      ]);
      return { total, clients };
    },
    listEmployees: () => db.employee.findMany({ select: employeeInfoSelect, orderBy: { id: 'asc' }, take: 1000 }),
    /** Whether a client or an employee signs in with this e-mail (login_names is kept by triggers). */
    loginNameTaken: async (name: string) => (await db.loginName.count({ where: { name } })) > 0,
    createEmployee: (data: Prisma.EmployeeCreateInput) => db.employee.create({ data, select: employeeInfoSelect }),
    employeeRole: (id: number) => db.employee.findUnique({ where: { id }, select: { role: true } }),
    adminCount: () => db.employee.count({ where: { role: 'Admin' } }),
    setRole: (id: number, role: (typeof EMPLOYEE_ROLES)[number]) =>
      db.employee.update({ where: { id }, data: { role }, select: employeeInfoSelect }),
    /** The employee's sessions end with the row (sessions are not foreign-keyed, so revoke explicitly). */
    deleteEmployee: (id: number) =>
      auditedTransaction(db, async (tx) => {
        await tx.sessionFamily.updateMany({
          where: { audience: 'employee', subjectId: id, revokedAt: null },
          data: { revokedAt: new Date() },
        });
        return tx.employee.delete({ where: { id }, select: { id: true } });
      }),
  };
}

export type PeopleRepository = ReturnType<typeof peopleRepository>;

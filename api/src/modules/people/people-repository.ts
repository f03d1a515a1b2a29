// Clients and employees as the back-office sees them.
import { type EMPLOYEE_ROLES, EMPLOYEES_LISTED } from '@bookshop/rules';
import type { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../plugins/prisma.ts';
import { employeeInfoSelect } from '../accounts/account-repository.ts';
import { HAS_FACTOR } from '../second-factor/second-factor-repository.ts';
import { auditedTransaction } from '../security/audit.ts';
import { endSessions } from '../sessions/session-repository.ts';

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
      const [total, clients] = await Promise.all([
        db.client.count(),
        db.client.findMany({ select: clientSelect, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip, take }),
      ]);
      return { total, clients };
    },
    listEmployees: () => db.employee.findMany({ select: employeeInfoSelect, orderBy: { id: 'asc' }, take: EMPLOYEES_LISTED }),
    /** Whether a client or an employee signs in with this e-mail (login_names is kept by triggers). */
    loginNameTaken: async (name: string) => (await db.loginName.count({ where: { name } })) > 0,
    createEmployee: (data: Prisma.EmployeeCreateInput) => db.employee.create({ data, select: employeeInfoSelect }),
    employeeRole: (id: number) => db.employee.findUnique({ where: { id }, select: { role: true } }),
    /**
     * Sets a role, keeping an Admin, and an Admin with a second factor: the Admins' rows and the
     * employee's are locked first (as a factor's removal locks them), so two changes at once (two
     * Admins demoting each other) are decided one after the other, and the second sees the one Admin
     * left. 'last': the change would leave no Admin; 'lastFactor': no Admin with a second factor; null:
     * no such employee; `moved`: `from` (the role the screen showed) is no longer theirs.
     */
    setRoleKeepingAnAdmin: (id: number, role: (typeof EMPLOYEE_ROLES)[number], from?: (typeof EMPLOYEE_ROLES)[number]) =>
      auditedTransaction(db, async (tx) => {
        // The employee's own row with them, so its role is read as it is now (a row that became an
        // Admin while this waited is not in a list of Admins read before the wait).
        const locked = await tx.$queryRaw<{ id: number; role: string }[]>`
          SELECT id, role::text FROM employees WHERE role = 'Admin' OR id = ${id} ORDER BY id FOR NO KEY UPDATE`;
        const target = locked.find((row) => row.id === id);
        if (!target) return null;
        if (from !== undefined && target.role !== from) {
          return { moved: await tx.employee.findUniqueOrThrow({ where: { id }, select: employeeInfoSelect }) } as const;
        }
        const demoted = role !== 'Admin' && target.role === 'Admin';
        // Counted after the locks, each by a statement of its own: every other role change waits on them now.
        if (demoted && (await tx.employee.count({ where: { role: 'Admin', id: { not: id } } })) === 0) return 'last' as const;
        if (
          demoted &&
          (await tx.employee.count({ where: { id, ...HAS_FACTOR } })) > 0 &&
          (await tx.employee.count({ where: { role: 'Admin', id: { not: id }, ...HAS_FACTOR } })) === 0
        )
          return 'lastFactor' as const;
        const { count } = await tx.employee.updateMany({ where: { id }, data: { role } });
        return count === 1 ? tx.employee.findUniqueOrThrow({ where: { id }, select: employeeInfoSelect }) : null;
      }),
    /**
     * Deletes an employee who is not an Admin, in one statement, so one made Admin meanwhile stays;
     * their sessions end with the row (sessions are not foreign-keyed, so revoke explicitly). False:
     * no such employee, or an Admin.
     */
    deleteNonAdmin: (id: number) =>
      auditedTransaction(db, async (tx) => {
        const { count } = await tx.employee.deleteMany({ where: { id, role: { not: 'Admin' } } });
        if (count === 0) return false;
        await endSessions(tx, 'employee', id);
        return true;
      }),
  };
}

export type PeopleRepository = ReturnType<typeof peopleRepository>;

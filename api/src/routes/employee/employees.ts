import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { signedInEmployee } from '../../plugins/sessions.ts';
import { Body, PositiveInt, responses } from '../../schemas/common.ts';
import { PersonInformations } from '../../schemas/people.ts';
import { documentRoutes } from '../document-routes.ts';

export const STEP_UP_NOTE = 'Needs a second factor used within the last 10 minutes from an employee who has one (403 STEP_UP_REQUIRED).';

const employeesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  documentRoutes(app, { tags: ['Back-office employees'] });
  app.get(
    '/employees/',
    {
      schema: {
        operationId: 'listEmployees',
        summary: 'All employees',
        response: responses(Type.Array(Type.Ref('EmployeeRow')), 401, 403),
      },
    },
    async () => ({ data: await app.employees.listEmployees() }),
  );

  app.post(
    '/',
    {
      config: { stepUp: true },
      schema: {
        operationId: 'addEmployee',
        summary: 'Add an employee (role Admin or Seller)',
        description: STEP_UP_NOTE,
        body: Body({
          person_informations: Type.Optional(PersonInformations),
          password: Type.Optional(Type.String({ maxLength: 1000 })),
          role: Type.Optional(Type.String({ maxLength: 20 })),
        }),
        response: responses(Type.Ref('EmployeeRow'), 400, 401, 403, 409),
      },
    },
    async (request) => ({ data: await app.employees.addEmployee(request.body) }),
  );

  app.delete(
    '/:id',
    {
      config: { stepUp: true },
      schema: {
        operationId: 'deleteEmployee',
        summary: 'Delete an employee (never an Admin, never yourself)',
        description: STEP_UP_NOTE,
        params: Type.Object({ id: PositiveInt }),
        response: responses(Type.Boolean(), 400, 401, 403, 404),
      },
    },
    async (request) => {
      await app.employees.deleteEmployee(signedInEmployee(request).id, request.params.id);
      return { data: true };
    },
  );

  app.put(
    '/:id/role',
    {
      config: { stepUp: true },
      schema: {
        operationId: 'changeEmployeeRole',
        summary: "Change another employee's role (the shop keeps at least one Admin)",
        description: STEP_UP_NOTE,
        params: Type.Object({ id: PositiveInt }),
        body: Body({ role: Type.String({ maxLength: 20, description: "'Admin' or 'Seller'" }) }),
        response: responses(Type.Ref('EmployeeRow'), 400, 401, 403, 404, 409),
      },
    },
    async (request) => ({ data: await app.employees.changeRole(signedInEmployee(request).id, request.params.id, request.body.role) }),
  );

  app.delete(
    '/:id/second-factor',
    {
      config: { stepUp: true },
      schema: {
        operationId: 'resetEmployeeSecondFactor',
        summary: "Reset another employee's second factor: every app, passkey and recovery code goes, and their sessions end",
        description: `Audited. Never the last second factor of the shop's Admins. ${STEP_UP_NOTE}`,
        params: Type.Object({ id: PositiveInt }),
        response: responses(Type.Boolean(), 400, 401, 403, 404, 409),
      },
    },
    async (request) => {
      const employee = signedInEmployee(request);
      await app.secondFactor.reset(employee.id, request.params.id, app.clientAddress(request));
      await app.sessions.revokeAllSessions('employee', request.params.id);
      return { data: true };
    },
  );
};

export default employeesRoutes;

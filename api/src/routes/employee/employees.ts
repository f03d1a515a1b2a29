import { EMPLOYEES_LISTED } from '@bookshop/rules';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { signedInEmployee } from '../../plugins/sessions.ts';
import { Body, PositiveInt, responses } from '../../schemas/common.ts';
import { PersonInformations } from '../../schemas/people.ts';
import { documentRoutes } from '../document-routes.ts';
import { deleteByIdRoute } from './schemas.ts';

export const STEP_UP_NOTE = 'Needs a second factor used within the last 10 minutes from an employee who has one (403 STEP_UP_REQUIRED).';
const stepUp = { config: { stepUp: true }, description: STEP_UP_NOTE };

const employeesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  documentRoutes(app, { tags: ['Back-office employees'] });
  app.get(
    '/employees/',
    {
      schema: {
        operationId: 'listEmployees',
        summary: 'All employees',
        description: `By number; the first ${EMPLOYEES_LISTED.toLocaleString('en-US')} at most.`,
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

  deleteByIdRoute(
    app,
    ['deleteEmployee', 'Delete an employee (never an Admin, never yourself)'],
    [404],
    (id, request) => app.employees.deleteEmployee(signedInEmployee(request).id, id),
    stepUp,
  );

  app.put(
    '/:id/role',
    {
      config: { stepUp: true },
      schema: {
        operationId: 'changeEmployeeRole',
        summary: "Change another employee's role (the shop keeps at least one Admin, and one with a second factor)",
        description: STEP_UP_NOTE,
        params: Type.Object({ id: PositiveInt }),
        querystring: Type.Object({
          from: Type.Optional(
            Type.Union([Type.Literal('Admin'), Type.Literal('Seller')], {
              description:
                'The role the screen showed. An employee whose role changed since keeps it (409 ROLE_CHANGED, the row as it is in `error.details.current`).',
            }),
          ),
        }),
        body: Body({ role: Type.String({ maxLength: 20, description: "'Admin' or 'Seller'" }) }),
        response: responses(Type.Ref('EmployeeRow'), 400, 401, 403, 404, 409),
      },
    },
    async (request) => ({
      data: await app.employees.changeRole(signedInEmployee(request).id, request.params.id, request.body.role, request.query.from),
    }),
  );

  deleteByIdRoute(
    app,
    [
      'resetEmployeeSecondFactor',
      "Reset another employee's second factor: every app, passkey and recovery code goes, and their sessions end",
      '/:id/second-factor',
    ],
    [404, 409],
    async (id, request) => {
      // Their sessions end in the reset's own transaction.
      await app.secondFactor.reset(signedInEmployee(request).id, id, app.clientAddress(request));
    },
    { ...stepUp, description: `Audited. Never the last second factor of the shop's Admins. ${STEP_UP_NOTE}` },
  );
};

export default employeesRoutes;

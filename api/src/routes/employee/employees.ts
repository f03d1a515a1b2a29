import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { signedInEmployee } from '../../plugins/auth.ts';
import { Body, PositiveInt, responses } from '../../schemas/common.ts';
import { PersonInformations } from '../../schemas/people.ts';
import { documentRoutes } from '../document-routes.ts';

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
      schema: {
        operationId: 'addEmployee',
        summary: 'Add an employee (role Admin or Seller)',
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
      schema: {
        operationId: 'deleteEmployee',
        summary: 'Delete an employee (never an Admin, never yourself)',
        params: Type.Object({ id: PositiveInt }),
        response: responses(Type.Boolean(), 400, 401, 403, 404),
      },
    },
    async (request) => {
      await app.employees.deleteEmployee(signedInEmployee(request).id, request.params.id);
      return { data: true };
    },
  );
};

export default employeesRoutes;

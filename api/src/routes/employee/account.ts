import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { toEmployee } from '../../modules/people/employee-service.ts';
import { signedInEmployee } from '../../plugins/sessions.ts';
import { responses } from '../../schemas/common.ts';
import { PersonInformations } from '../../schemas/people.ts';
import { documentRoutes } from '../document-routes.ts';
import { ownPasswordRoute } from '../own-password.ts';
import { STEP_UP_NOTE } from './employees.ts';

/** The signed-in employee's own account (any role). */
const accountRoutes: FastifyPluginAsyncTypebox = async (app) => {
  documentRoutes(app, { tags: ['Back-office account'] });
  app.get(
    '/employee/',
    {
      // The screens need the signed-in employee's name and role even before an Admin's enrolment.
      config: { beforeSecondFactor: true },
      schema: {
        operationId: 'getOwnEmployeeInfo',
        summary: 'My information',
        response: responses(Type.Ref('EmployeeRow'), 401, 403, 404),
      },
    },
    async (request) => ({ data: toEmployee(await app.accounts.employeeInfo(signedInEmployee(request).id)) }),
  );

  app.put(
    '/',
    {
      schema: {
        operationId: 'updateOwnEmployeeInfo',
        summary: 'Update my information',
        description: `A new e-mail (the name I sign in with) needs the step-up: ${STEP_UP_NOTE}`,
        body: PersonInformations,
        response: responses(Type.Ref('EmployeeRow'), 400, 401, 403, 404, 409, 429),
      },
    },
    async (request) => ({
      data: await app.employees.updateOwnInformation(signedInEmployee(request).id, request.body, () => app.steppedUpOrRefuse(request)),
    }),
  );

  ownPasswordRoute(app, 'employee', 'changeEmployeePassword', [400, 401, 403, 429, 503]);
};

export default accountRoutes;

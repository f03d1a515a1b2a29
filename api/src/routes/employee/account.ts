import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { toEmployee } from '../../modules/people/employee-service.ts';
import { signedInEmployee } from '../../plugins/sessions.ts';
import { responses } from '../../schemas/common.ts';
import { PasswordChange, PersonInformations } from '../../schemas/people.ts';
import { documentRoutes } from '../document-routes.ts';

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
        body: PersonInformations,
        response: responses(Type.Ref('EmployeeRow'), 400, 401, 403, 409),
      },
    },
    async (request) => ({ data: await app.employees.updateOwnInformation(signedInEmployee(request).id, request.body) }),
  );

  app.put(
    '/password/',
    {
      schema: {
        operationId: 'changeEmployeePassword',
        summary: 'Change my password; my other sessions end',
        body: PasswordChange,
        response: responses(Type.Boolean(), 400, 401, 403, 429, 503),
      },
    },
    async (request) => {
      const { id, familyId } = signedInEmployee(request);
      // The current password is guessable like a sign-in, so it is throttled like one.
      await app.throttledPasswordCheck(request, await app.accounts.loginName('employee', id), () =>
        app.accounts.changePassword('employee', id, request.body.oldPassword, request.body.newPassword),
      );
      await app.sessions.revokeOtherSessions('employee', id, familyId);
      return { data: true };
    },
  );
};

export default accountRoutes;

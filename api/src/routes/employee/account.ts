import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { refuse } from '../../lib/refusals.ts';
import { toEmployee } from '../../modules/people/employee-service.ts';
import { signedInEmployee } from '../../plugins/sessions.ts';
import { IfMatchHeader } from '../../schemas/backoffice-catalog.ts';
import { responses } from '../../schemas/common.ts';
import { OwnInformation } from '../../schemas/people.ts';
import { documentRoutes } from '../document-routes.ts';
import { ownPasswordRoute } from '../own-password.ts';
import { ownSessionsRoutes } from '../own-sessions.ts';
import { STEP_UP_NOTE } from './employees.ts';
import { tagVersion, versionRead } from './schemas.ts';

/** Saves of an employee's own information an hour, right or refused. */
export const OWN_INFORMATION_SAVES_PER_HOUR = 30;

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
    // The version is in the body, not the ETag: every employee's information starts at version 1, and a
    // tag shared between two people's answers could answer one of them 304 with the other's.
    async (request) => ({ data: toEmployee(await app.accounts.employeeInfo(signedInEmployee(request).id)) }),
  );

  app.put(
    '/',
    {
      // Per employee: a save answers whether another account has the e-mail (409), and only a change
      // that lands counts against the day's e-mail changes, so a loop of saves could tell a Seller which
      // e-mails are clients' without end. A person edits their details a few times an hour at most.
      config: {
        rateLimit: {
          max: OWN_INFORMATION_SAVES_PER_HOUR,
          timeWindow: '1 hour',
          hook: 'preHandler',
          keyGenerator: (request) => `employee:${signedInEmployee(request).id}`,
        },
      },
      schema: {
        operationId: 'updateOwnEmployeeInfo',
        summary: 'Update my information',
        description:
          'A new e-mail (the name I sign in with) needs proof that it is me: from an employee without a second factor, ' +
          `the current password (\`currentPassword\`; 400 PASSWORD_REQUIRED or WRONG_PASSWORD, throttled as a sign-in); otherwise the step-up. ${STEP_UP_NOTE} ` +
          'Send the version of my information as read (its `version`, as If-Match "<version>") and information changed since is refused with 412, the information now in `error.details.current`.',
        headers: IfMatchHeader,
        body: OwnInformation,
        response: responses(Type.Ref('EmployeeRow'), 400, 401, 403, 404, 409, 412, 429, 503),
      },
    },
    async (request, reply) => {
      const { currentPassword, ...person } = request.body;
      const beforeEmailChange = () => app.reauthenticatedOrRefuse(request, currentPassword, refuse.passwordForEmailChange);
      const saved = await app.employees.updateOwnInformation(signedInEmployee(request).id, person, beforeEmailChange, versionRead(request));
      return { data: tagVersion(reply, saved) };
    },
  );

  ownPasswordRoute(app, 'employee', 'changeEmployeePassword', [400, 401, 403, 409, 429, 503]);
  ownSessionsRoutes(app, 'employee', { list: 'getOwnEmployeeSessions', end: 'endOwnEmployeeSessions' }, [401, 403, 503]);
};

export default accountRoutes;

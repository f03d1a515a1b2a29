import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError, badRequest } from '../../lib/errors.ts';
import { normalizeAccount } from '../../modules/accounts/account-service.ts';
import { deviceOf } from '../../modules/sessions/device.ts';
import { REFRESHES_PER_SESSION_HOUR } from '../../modules/sessions/session-service.ts';
import { Body, responses } from '../../schemas/common.ts';
import { documentRoutes } from '../document-routes.ts';

const UserType = Type.String({ description: "'Client', 'Admin' or 'Seller'" });
const SignInAnswer = Type.String({
  description:
    "'Client', 'Admin' or 'Seller'; or 'SecondFactor': an employee with a second factor gives it next " +
    '(POST /api/public/authentication/second-factor), and no session exists until then',
});

const authenticationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  documentRoutes(app, { tags: ['Authentication'] });
  app.post(
    '/login',
    {
      schema: {
        operationId: 'login',
        summary: 'Sign in a client or an employee; data is the user type, or SecondFactor when one is asked for',
        body: Body({ account: Type.String({ maxLength: 320 }), password: Type.String({ maxLength: 1000 }) }),
        response: responses(SignInAnswer, 400, 401, 429, 503),
      },
    },
    async (request, reply) => {
      const account = normalizeAccount(request.body.account);
      if (!account || !request.body.password) throw badRequest('Please enter your account and password.');
      await app.loginThrottle.refuseIfSignedInTooOften(account);
      const result = await app.throttledPasswordCheck(request, account, () => app.accounts.login(account, request.body.password));
      // An employee with a second factor gets no session yet: only a short-lived token for the next step.
      // Not counted toward the hour's sign-ins: someone holding the password alone would otherwise use
      // them up, and keep the employee from signing in.
      if (result.audience === 'employee' && (await app.secondFactor.hasFactor(result.id))) {
        app.signInToken.set(request, reply, await app.secondFactor.openSignIn(result.id, result.passwordFingerprint));
        return { data: 'SecondFactor' };
      }
      const session = await app.sessions.start(result.audience, result.id, {
        device: deviceOf(request.headers['user-agent']),
        checkedPassword: result.passwordFingerprint,
      });
      await app.loginThrottle.signedIn(account);
      app.setSessionCookies(request, reply, result.audience, session);
      if (result.audience === 'employee') await app.recordEmployeeSignIn(request, result.id, 'password');
      else await app.recordClientEvent(request, 'client_signed_in', result.id);
      return { data: result.userType };
    },
  );

  app.post(
    '/refresh-tokens/:userType',
    {
      schema: {
        operationId: 'refreshTokens',
        summary: "Rotate the session of this user type ('Client' for the storefront, any other for the back-office)",
        description:
          `At most ${REFRESHES_PER_SESSION_HOUR} an hour a session: past them 429 with Retry-After, the session and its cookies kept. ` +
          "A refresh token from before the session's tokens were renewed (a step-up, a factor enrolled, a new password) is refused with 401 SESSION_RENEWED, the cookies kept: the renewal's answer sets the new ones.",
        params: Type.Object({ userType: Type.String({ maxLength: 40 }) }),
        response: responses(UserType, 401, 429),
      },
    },
    async (request, reply) => {
      const audience = request.params.userType.toLowerCase() === 'client' ? 'client' : 'employee';
      const presented = app.sessionCookie(request, audience, 'refresh');
      try {
        const session = await app.sessions.rotate(audience, presented, app.clientAddress(request));
        // The role before the cookies: an employee deleted meanwhile gets no cookies of a session their delete ended.
        const userType = audience === 'client' ? ('Client' as const) : (await app.accounts.employeeInfo(session.subjectId)).role;
        app.setSessionCookies(request, reply, audience, session);
        return { data: userType };
      } catch (error) {
        // Only a presented token the session refused (401) is cleared: a visitor's refresh without one
        // must not wipe the cookies of a sign-in that answered meanwhile, and a refresh that could not
        // be made (429, a 5xx in an outage) leaves the session for the browser's next try. Nor one from
        // before a renewal of the session's tokens: the renewal's answer may have set the new ones.
        if (presented && error instanceof AppError && error.statusCode === 401 && error.code !== 'SESSION_RENEWED')
          app.clearSessionCookies(reply, audience);
        throw error;
      }
    },
  );

  app.delete(
    '/cookies/',
    {
      schema: {
        operationId: 'signOut',
        summary: 'Sign out: revoke and clear both sessions held by this browser',
        response: responses(Type.Boolean()),
      },
    },
    async (request, reply) => {
      for (const audience of ['client', 'employee'] as const) {
        await app.sessions.revokeByRefreshToken(app.sessionCookie(request, audience, 'refresh'));
        app.clearSessionCookies(reply, audience);
      }
      return { data: true };
    },
  );
};

export default authenticationRoutes;

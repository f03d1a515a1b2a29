import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { refuse } from '../lib/refusals.ts';
import { SESSIONS_PER_ACCOUNT } from '../modules/sessions/session-service.ts';
import { signedInClient, signedInEmployee } from '../plugins/sessions.ts';
import { responses } from '../schemas/common.ts';
import { EndSessions } from '../schemas/people.ts';
import { STEP_UP_NOTE } from './employee/employees.ts';

/**
 * Ends one session may ask for in an hour, right or wrong. Wrong passwords are throttled as sign-ins
 * are; this bounds the right ones, each an event in the security log. Counted per session, not per
 * account: a session someone has taken could otherwise spend the account's asks and leave its owner
 * unable to end it (an account keeps SESSIONS_PER_ACCOUNT sessions at most, so the asks stay bounded).
 */
export const SESSION_ENDINGS_PER_HOUR = 20;

/**
 * `GET <prefix>/sessions/` and `POST <prefix>/sessions/end`: the signed-in client or employee sees
 * their live sessions (what each was signed in from, when, and which is this one) and ends any of the
 * others, a phone left signed in or a browser they no longer trust (ASVS 5.0 7.5.2). Ending asks for
 * the password: a session someone else has taken cannot end its owner's. The session asking is never
 * ended here: signing out ends it. `errorStatuses` are the statuses the subtree may answer besides 200.
 */
export function ownSessionsRoutes(
  app: Parameters<FastifyPluginAsyncTypebox>[0],
  audience: 'client' | 'employee',
  operationIds: { list: string; end: string },
  errorStatuses: number[],
): void {
  const signedIn = audience === 'client' ? signedInClient : signedInEmployee;
  // An Admin who must set up a second factor first, kept on the Account screen, sees and ends sessions too.
  const beforeSecondFactor = audience === 'employee';
  app.get(
    '/sessions/',
    {
      config: { beforeSecondFactor },
      schema: {
        operationId: operationIds.list,
        summary: 'My live sessions, the most recently used first',
        description: `An account keeps ${SESSIONS_PER_ACCOUNT} sessions at most, so this is every one.`,
        response: responses(Type.Array(Type.Ref('OwnSession')), ...errorStatuses),
      },
    },
    async (request) => {
      const { id, familyId } = signedIn(request);
      const live = await app.sessions.live(audience, id, familyId);
      return {
        data: live.map((session) => ({
          ...session,
          startedAt: session.startedAt.toISOString(),
          lastActiveAt: session.lastActiveAt.toISOString(),
        })),
      };
    },
  );

  app.post(
    '/sessions/end',
    {
      config: {
        beforeSecondFactor,
        // An employee's second factor too, once they have one, as for a new password: a taken session
        // and a phished password alone cannot keep ending the owner's sessions.
        stepUp: audience === 'employee',
        rateLimit: {
          max: SESSION_ENDINGS_PER_HOUR,
          timeWindow: '1 hour',
          hook: 'preHandler',
          keyGenerator: (request) => `sessions-end:${audience}:${signedIn(request).familyId}`,
        },
      },
      schema: {
        operationId: operationIds.end,
        summary: 'End some of my other sessions',
        description:
          'Needs my password (`password`; 400 PASSWORD_REQUIRED or WRONG_PASSWORD, throttled as a sign-in)' +
          (audience === 'employee' ? `, and the step-up: ${STEP_UP_NOTE}` : '.') +
          ' Ids that are not my live sessions, and the session asking, are passed over; `ended` counts those ended. ' +
          `A session may ask ${SESSION_ENDINGS_PER_HOUR} times an hour, right or wrong; beyond that, 429 with Retry-After.`,
        body: EndSessions(SESSIONS_PER_ACCOUNT),
        response: responses(Type.Object({ ended: Type.Integer({ minimum: 0 }) }), 400, 429, ...errorStatuses),
      },
    },
    async (request) => {
      const { id, familyId } = signedIn(request);
      await app.confirmOwnPassword(request, audience, id, request.body.password, refuse.passwordForEndingSessions);
      const ended = await app.sessions.endOwn(audience, id, request.body.sessionIds, familyId);
      if (ended > 0) {
        await app.securityEvents.record({
          type: 'sessions_ended',
          actor: `${audience}:${id}`,
          address: app.clientAddress(request),
          entity: 'session',
          details: { ended },
        });
      }
      return { data: { ended } };
    },
  );
}

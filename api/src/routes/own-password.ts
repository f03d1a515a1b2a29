import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { signedInClient, signedInEmployee } from '../plugins/sessions.ts';
import { responses } from '../schemas/common.ts';
import { PasswordChange } from '../schemas/people.ts';
import { STEP_UP_NOTE } from './employee/employees.ts';

/**
 * Password changes one account may ask for a day, right or wrong. The login throttle counts only
 * wrong current passwords; a right one clears it, so without this a signed-in loop of changes (A to B,
 * B to A) would run bcrypt and write a security notice e-mail without end.
 */
export const PASSWORD_CHANGES_PER_DAY = 10;

/**
 * `PUT <prefix>/password/`: the signed-in client or employee changes their own password. The current
 * password is guessable like a sign-in, so it is throttled like one; once changed, their other sessions end.
 * `errorStatuses` are the statuses the route's subtree may answer besides 200.
 */
export function ownPasswordRoute(
  app: Parameters<FastifyPluginAsyncTypebox>[0],
  audience: 'client' | 'employee',
  operationId: string,
  errorStatuses: number[],
): void {
  const signedIn = audience === 'client' ? signedInClient : signedInEmployee;
  app.put(
    '/password/',
    {
      // Counted per account once the session is known (the subtree checks it on the request), in the
      // shared counters; each audience's route keeps its own count.
      config: {
        // An employee's new password ends their other sessions: from a stolen session and a phished
        // password, that would lock the owner out. Changing how one signs in needs the second factor
        // too, as the factors' own changes do (an employee without one passes, as everywhere).
        stepUp: audience === 'employee',
        rateLimit: {
          max: PASSWORD_CHANGES_PER_DAY,
          timeWindow: '1 day',
          hook: 'preHandler',
          keyGenerator: (request) => `${audience}:${signedIn(request).id}`,
        },
      },
      schema: {
        operationId,
        summary: 'Change my password; my other sessions end',
        description:
          `An account may ask ${PASSWORD_CHANGES_PER_DAY} times a day, right or wrong; beyond that, 429 with Retry-After. ` +
          "This session's cookies are renewed (Set-Cookie): its access and refresh tokens from before are refused from then on; " +
          'sent from a session another call renewed a moment before (another tab), 409 RENEWED_MEANWHILE, nothing changed.' +
          (audience === 'employee' ? ` ${STEP_UP_NOTE}` : ''),
        body: PasswordChange,
        response: responses(Type.Boolean(), ...errorStatuses),
      },
    },
    async (request, reply) => {
      const session = signedIn(request);
      const { id } = session;
      // The session that changed it stays, with new tokens: one taken from this very browser ends too.
      const renewal = await app.sessions.renewal(audience, session);
      await app.throttledPasswordCheck(request, await app.accounts.loginName(audience, id), async () => {
        const changed = await app.accounts.changePassword(audience, id, renewal, request.body.oldPassword, request.body.newPassword);
        // At once: the change committed, and the browser needs the new tokens even when a write after
        // it fails (the throttle's, the event's) and the answer is an error.
        app.setSessionCookies(request, reply, audience, renewal.issued());
        return changed;
      });
      // An employee's change is in the audit log already, as the write of their row's hash.
      if (audience === 'client') await app.recordClientEvent(request, 'password_changed', id);
      return { data: true };
    },
  );
}

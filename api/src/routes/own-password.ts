import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { signedInClient, signedInEmployee } from '../plugins/sessions.ts';
import { responses } from '../schemas/common.ts';
import { PasswordChange } from '../schemas/people.ts';

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
      schema: {
        operationId,
        summary: 'Change my password; my other sessions end',
        body: PasswordChange,
        response: responses(Type.Boolean(), ...errorStatuses),
      },
    },
    async (request) => {
      const { id, familyId } = signedIn(request);
      await app.throttledPasswordCheck(request, await app.accounts.loginName(audience, id), () =>
        app.accounts.changePassword(audience, id, request.body.oldPassword, request.body.newPassword),
      );
      await app.sessions.revokeOtherSessions(audience, id, familyId);
      return { data: true };
    },
  );
}

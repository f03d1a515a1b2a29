import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { signedInClient } from '../../plugins/sessions.ts';
import { Body, responses } from '../../schemas/common.ts';
import { MailPreferences, MailPreferencesBody } from '../../schemas/people.ts';
import { documentRoutes } from '../document-routes.ts';

const text = Type.Optional(Type.String({ maxLength: 100 }));

const manageRoutes: FastifyPluginAsyncTypebox = async (app) => {
  documentRoutes(app, { tags: ['Client account'] });
  app.get(
    '',
    {
      schema: {
        operationId: 'getClientInfo',
        summary: 'My profile',
        response: responses(Type.Ref('ClientInfo'), 401, 404),
      },
    },
    async (request) => ({ data: await app.accounts.clientInfo(signedInClient(request).id) }),
  );

  app.patch(
    '',
    {
      schema: {
        operationId: 'updateClientInfo',
        summary: 'Update my name and phone',
        body: Body({ firstName: text, lastName: text, phoneNumber: text }),
        response: responses(Type.Ref('ClientInfo'), 400, 401),
      },
    },
    async (request) => ({ data: await app.accounts.updateClientProfile(signedInClient(request).id, request.body) }),
  );

  app.get(
    '/mail-preferences',
    {
      schema: {
        operationId: 'getMailPreferences',
        summary: 'Which e-mails I get besides order confirmations',
        description: 'Order confirmations always go; order status and back-in-stock e-mails follow these choices.',
        response: responses(MailPreferences, 401, 404),
      },
    },
    async (request) => ({ data: await app.accounts.mailPreferences(signedInClient(request).id) }),
  );

  app.put(
    '/mail-preferences',
    {
      schema: {
        operationId: 'setMailPreferences',
        summary: 'Choose whether I get order status and back-in-stock e-mails',
        body: MailPreferencesBody,
        response: responses(MailPreferences, 400, 401, 404),
      },
    },
    async (request) => ({ data: await app.accounts.mailPreferences(signedInClient(request).id, request.body) }),
  );

  app.put(
    '/password/',
    {
      schema: {
        operationId: 'changeClientPassword',
        summary: 'Change my password; my other sessions end',
        body: Body({
          oldPassword: Type.Optional(Type.String({ maxLength: 1000 })),
          newPassword: Type.Optional(Type.String({ maxLength: 1000 })),
        }),
        response: responses(Type.Boolean(), 400, 401, 429, 503),
      },
    },
    async (request) => {
      const { id, familyId } = signedInClient(request);
      // The current password is guessable like a sign-in, so it is throttled like one.
      await app.throttledPasswordCheck(request, await app.accounts.loginName('client', id), () =>
        app.accounts.changePassword('client', id, request.body.oldPassword, request.body.newPassword),
      );
      await app.sessions.revokeOtherSessions('client', id, familyId);
      return { data: true };
    },
  );
};

export default manageRoutes;

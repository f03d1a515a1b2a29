import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { signedInClient } from '../../plugins/sessions.ts';
import { Body, responses } from '../../schemas/common.ts';
import { MailPreferences, MailPreferencesBody } from '../../schemas/people.ts';
import { documentRoutes } from '../document-routes.ts';
import { ownPasswordRoute } from '../own-password.ts';
import { ownSessionsRoutes } from '../own-sessions.ts';

// What is parsed at most; the rule module's limits (a name's 100 characters) answer with the screen's words.
const text = Type.Optional(Type.String({ maxLength: 1000 }));

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

  ownPasswordRoute(app, 'client', 'changeClientPassword', [400, 401, 409, 429, 503]);
  ownSessionsRoutes(app, 'client', { list: 'getOwnClientSessions', end: 'endOwnClientSessions' }, [401, 503]);
};

export default manageRoutes;

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { responses } from '../../schemas/common.ts';
import { UnsubscribeQuery } from '../../schemas/mail.ts';
import { documentRoutes } from '../document-routes.ts';

/** Unsubscribe attempts one address may make per hour: each checks a signature. */
export const UNSUBSCRIBES_PER_HOUR = 60;

/**
 * One-click unsubscribe (RFC 8058, beyond the spec): the URL of a status or back-in-stock e-mail's
 * List-Unsubscribe header, which mail programs POST with `List-Unsubscribe=One-Click`; the e-mail's
 * own link opens the storefront's /unsubscribe page, which posts here. Order confirmations have none.
 */
const unsubscribeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  documentRoutes(app, { tags: ['E-mail'] });
  // The one-click body is form-encoded, or multipart as RFC 8058 prefers it (415 before, and the client
  // stayed subscribed); its only field says what the URL already says, so neither is read.
  for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data']) {
    app.addContentTypeParser(type, { parseAs: 'string', bodyLimit: 1024 }, (_request, _body, done) => done(null, {}));
  }
  app.post(
    '/',
    {
      config: { rateLimit: { max: UNSUBSCRIBES_PER_HOUR, timeWindow: '1 hour' } },
      schema: {
        operationId: 'unsubscribe',
        summary: 'Stops the order status or back-in-stock e-mails of the client a signed link names (beyond the spec)',
        querystring: UnsubscribeQuery,
        response: responses(Type.String(), 400, 429),
      },
    },
    async (request) => {
      const { client, list, token } = request.query;
      await app.mail.unsubscribe(client, list, token);
      return { data: list === 'status' ? 'You will no longer get order status e-mails.' : 'You will no longer get back-in-stock e-mails.' };
    },
  );
};

export default unsubscribeRoutes;

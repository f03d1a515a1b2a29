import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { SHOP_CONTACT_MESSAGES_PER_HOUR } from '../../modules/contact/contact-service.ts';
import { Body, responses } from '../../schemas/common.ts';
import { documentRoutes } from '../document-routes.ts';

/** Contact messages one address may send per hour (anonymous, so rate-limited). */
export const ANONYMOUS_WRITES_PER_HOUR = 20;

const contactRoutes: FastifyPluginAsyncTypebox = async (app) => {
  documentRoutes(app, { tags: ['Contact'] });
  const text = Type.Optional(Type.String({ maxLength: 500 }));
  app.post(
    '/',
    {
      config: { rateLimit: { max: ANONYMOUS_WRITES_PER_HOUR, timeWindow: '1 hour' } },
      schema: {
        operationId: 'sendContactMessage',
        summary: 'Send a message to the shop (name, e-mail, at most 50 characters)',
        description:
          `An address may send ${ANONYMOUS_WRITES_PER_HOUR} an hour, and the whole shop takes ${SHOP_CONTACT_MESSAGES_PER_HOUR}; ` +
          'beyond either, 429 with Retry-After.',
        body: Body({ userName: text, account: text, message: text }),
        response: responses(Type.Boolean(), 400, 429),
      },
    },
    async (request) => {
      await app.contact.send(request.body);
      return { data: true };
    },
  );
};

export default contactRoutes;

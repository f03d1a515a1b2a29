import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Body, responses } from '../../lib/schemas.ts';
import { contactService } from '../../modules/backoffice/contact-service.ts';

const contactRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const contact = contactService(app.prisma);
  const text = Type.Optional(Type.String({ maxLength: 500 }));
  app.post(
    '/',
    {
      schema: {
        operationId: 'sendContactMessage',
        tags: ['Contact'],
        summary: 'Send a message to the shop (name, e-mail, at most 50 characters)',
        body: Body({ userName: text, account: text, message: text }),
        response: responses(Type.Boolean(), 400),
      },
    },
    async (request) => {
      await contact.send(request.body);
      return { data: true };
    },
  );
};

export default contactRoutes;

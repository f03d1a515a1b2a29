import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { OptionalPaging, responses } from '../../schemas/common.ts';
import { documentRoutes } from '../document-routes.ts';
import { deleteByIdRoute, OPTIONAL_PAGING_DESCRIPTION, optionalPage } from './schemas.ts';

const Message = Type.Object({
  id: Type.Integer(),
  userName: Type.String(),
  account: Type.String(),
  message: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
});

const contactRoutes: FastifyPluginAsyncTypebox = async (app) => {
  documentRoutes(app, { tags: ['Back-office messages'] });
  app.get(
    '/',
    {
      schema: {
        operationId: 'listContactMessages',
        summary: 'Client messages, newest first',
        description: OPTIONAL_PAGING_DESCRIPTION,
        querystring: OptionalPaging,
        response: responses(
          Type.Union([Type.Array(Message), Type.Object({ messages: Type.Array(Message), totalPages: Type.Integer() })]),
          400,
          401,
          403,
        ),
      },
    },
    async (request, reply) => ({ data: await optionalPage(request.query, reply, 'messages', app.contact.rows) }),
  );
  deleteByIdRoute(app, ['deleteContactMessage', 'Delete a message'], [404], app.contact.remove);
};

export default contactRoutes;

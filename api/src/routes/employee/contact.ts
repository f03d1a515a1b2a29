import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { PositiveInt, responses } from '../../lib/schemas.ts';
import { contactService } from '../../modules/backoffice/contact-service.ts';
import { OptionalPaging, security } from './schemas.ts';

const tags = ['Back-office messages'];

const contactRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const contact = contactService(app.prisma);
  app.get(
    '/',
    {
      schema: {
        operationId: 'listContactMessages',
        tags,
        security,
        summary: 'Client messages, newest first, paged',
        querystring: OptionalPaging,
        response: responses(
          Type.Object({
            messages: Type.Array(
              Type.Object({
                id: Type.Integer(),
                userName: Type.String(),
                account: Type.String(),
                message: Type.String(),
                createdAt: Type.String({ format: 'date-time' }),
              }),
            ),
            totalPages: Type.Integer(),
          }),
          400,
          401,
          403,
        ),
      },
    },
    async (request) => ({ data: await contact.page(request.query.pageNumber, request.query.pageSize) }),
  );
  app.delete(
    '/:id',
    {
      schema: {
        operationId: 'deleteContactMessage',
        tags,
        security,
        summary: 'Delete a message',
        params: Type.Object({ id: PositiveInt }),
        response: responses(Type.Boolean(), 400, 401, 403, 404),
      },
    },
    async (request) => {
      await contact.remove(request.params.id);
      return { data: true };
    },
  );
};

export default contactRoutes;

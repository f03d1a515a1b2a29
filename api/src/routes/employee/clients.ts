import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { responses } from '../../lib/schemas.ts';
import { peopleService } from '../../modules/backoffice/people-service.ts';
import { OptionalPaging, security } from './schemas.ts';

const clientsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const people = peopleService(app.prisma, app.config.bcryptCost);
  app.get(
    '/clients/',
    {
      schema: {
        operationId: 'listClients',
        tags: ['Back-office clients'],
        security,
        summary: 'All clients, newest first, paged',
        querystring: OptionalPaging,
        response: responses(Type.Object({ clients: Type.Array(Type.Ref('ClientRow')), totalPages: Type.Integer() }), 400, 401, 403),
      },
    },
    async (request) => ({ data: await people.clientPage(request.query.pageNumber, request.query.pageSize) }),
  );
};

export default clientsRoutes;

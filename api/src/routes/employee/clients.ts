import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { OptionalPaging, responses } from '../../schemas/common.ts';
import { documentRoutes } from '../document-routes.ts';
import { OPTIONAL_PAGING_DESCRIPTION, optionalPage } from './schemas.ts';

const Row = Type.Ref('ClientRow');

const clientsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  documentRoutes(app, { tags: ['Back-office clients'] });
  app.get(
    '/clients/',
    {
      schema: {
        operationId: 'listClients',
        summary: 'All clients, newest first',
        description: OPTIONAL_PAGING_DESCRIPTION,
        querystring: OptionalPaging,
        response: responses(
          Type.Union([Type.Array(Row), Type.Object({ clients: Type.Array(Row), totalPages: Type.Integer() })]),
          400,
          401,
          403,
        ),
      },
    },
    async (request, reply) => ({ data: await optionalPage(request.query, reply, 'clients', app.clientList.clientRows) }),
  );
};

export default clientsRoutes;

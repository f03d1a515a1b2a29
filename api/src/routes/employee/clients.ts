import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { OptionalPaging, responses } from '../../schemas/common.ts';
import { OPTIONAL_PAGING_DESCRIPTION, optionalPage, security } from './schemas.ts';

const Row = Type.Ref('ClientRow');

const clientsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/clients/',
    {
      schema: {
        operationId: 'listClients',
        tags: ['Back-office clients'],
        security,
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

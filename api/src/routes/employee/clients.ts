import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { OptionalPaging, responses } from '../../schemas/common.ts';
import { documentRoutes } from '../document-routes.ts';
import { STEP_UP_NOTE } from './employees.ts';
import { OPTIONAL_PAGING_DESCRIPTION, optionalPage } from './schemas.ts';

const Row = Type.Ref('ClientRow');

const clientsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  documentRoutes(app, { tags: ['Back-office clients'] });
  app.get(
    '/clients/',
    {
      // Every client's contact details: the export that most needs its Admin to be who they say.
      config: { stepUp: true },
      schema: {
        operationId: 'listClients',
        summary: 'All clients, newest first',
        description: `${OPTIONAL_PAGING_DESCRIPTION} ${STEP_UP_NOTE}`,
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

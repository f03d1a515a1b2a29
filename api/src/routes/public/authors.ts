import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { OptionalPaging, PositiveInt, responses } from '../../schemas/common.ts';
import { documentRoutes } from '../document-routes.ts';

/** An author's page (beyond the spec): every author name in the storefront links to it. */
const authorRoutes: FastifyPluginAsyncTypebox = async (app) => {
  documentRoutes(app, { tags: ['Public catalog'] });
  app.get(
    '/:id',
    {
      schema: {
        operationId: 'getAuthorPage',
        summary: 'An author and a page of their books on sale, with the ratings, most-rated first (beyond the spec)',
        params: Type.Object({ id: PositiveInt }),
        querystring: OptionalPaging,
        response: responses(Type.Ref('AuthorPage'), 400, 404),
      },
    },
    async (request, reply) => {
      const { pageNumber = 1, pageSize = 15 } = request.query;
      // Price and stock are live, as on the detail: revalidate each time (the ETag makes it a 304).
      reply.header('cache-control', 'no-cache');
      return { data: await app.catalog.authorPage(request.params.id, pageNumber, pageSize) };
    },
  );
};

export default authorRoutes;

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { OptionalPaging, PositiveInt, responses } from '../../schemas/common.ts';
import { documentRoutes } from '../document-routes.ts';

/** A book's reviews by its buyers, newest first (beyond the spec). */
const publicReviewRoutes: FastifyPluginAsyncTypebox = async (app) => {
  documentRoutes(app, { tags: ['Reviews'] });
  app.get(
    '/by-id/:id/reviews',
    {
      schema: {
        operationId: 'listBookReviews',
        summary: "The visible reviews of a copy's book, newest first, a page at a time (beyond the spec)",
        params: Type.Object({ id: PositiveInt }),
        querystring: OptionalPaging,
        response: responses(Type.Ref('ReviewPage'), 400, 404),
      },
    },
    async (request, reply) => {
      const { pageNumber = 1, pageSize = 5 } = request.query;
      reply.header('cache-control', 'no-cache');
      return { data: await app.reviews.forBook(request.params.id, pageNumber, pageSize) };
    },
  );
};

export default publicReviewRoutes;

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Body, PositiveInt, responses } from '../../schemas/common.ts';
import { documentRoutes } from '../document-routes.ts';
import { pagedListRoute } from './schemas.ts';

/** Buyers' reviews for the Admin (beyond the spec): read them all, hide one (the audit log records it). */
const reviewRoutes: FastifyPluginAsyncTypebox = async (app) => {
  documentRoutes(app, { tags: ['Back-office reviews'] });
  pagedListRoute(app, ['listReviews', 'Every review, hidden ones too, newest first'], { reviews: 'BackofficeReview' }, app.reviews.list);

  app.put(
    '/:id',
    {
      schema: {
        operationId: 'setReviewHidden',
        summary: 'Hide a review from the storefront (its stars leave the average), or show it again',
        params: Type.Object({ id: PositiveInt }),
        body: Body({
          hidden: Type.Boolean(),
          updatedAt: Type.String({
            format: 'date-time',
            description:
              "The review's updatedAt as the list showed it: a review whose words changed since is not shown again (412), so none goes live unread; hiding goes ahead",
          }),
        }),
        response: responses(Type.Boolean(), 400, 401, 403, 404, 412),
      },
    },
    async (request) => {
      await app.reviews.setHidden(request.params.id, request.body.hidden, request.body.updatedAt);
      return { data: true };
    },
  );
};

export default reviewRoutes;

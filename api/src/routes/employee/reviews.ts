import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Body, PageSize, PositiveInt, responses } from '../../schemas/common.ts';
import { security } from './schemas.ts';

const tags = ['Back-office reviews'];

/** Buyers' reviews for the Admin (beyond the spec): read them all, hide one (the audit log records it). */
const reviewRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/:pageNumber,:pageSize',
    {
      schema: {
        operationId: 'listReviews',
        tags,
        security,
        summary: 'Every review, hidden ones too, newest first',
        params: Type.Object({ pageNumber: PositiveInt, pageSize: PageSize }),
        response: responses(Type.Object({ reviews: Type.Array(Type.Ref('BackofficeReview')), totalPages: Type.Integer() }), 400, 401, 403),
      },
    },
    async (request) => ({ data: await app.reviews.list(request.params.pageNumber, request.params.pageSize) }),
  );

  app.put(
    '/:id',
    {
      schema: {
        operationId: 'setReviewHidden',
        tags,
        security,
        summary: 'Hide a review from the storefront (its stars leave the average), or show it again',
        params: Type.Object({ id: PositiveInt }),
        body: Body({ hidden: Type.Boolean() }),
        response: responses(Type.Boolean(), 400, 401, 403, 404),
      },
    },
    async (request) => {
      if (await app.reviews.setHidden(request.params.id, request.body.hidden)) {
        app.catalogProjections.changed(['home_list_candidates', 'category_listing']);
      }
      return { data: true };
    },
  );
};

export default reviewRoutes;

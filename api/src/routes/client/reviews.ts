import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { signedInClient } from '../../plugins/sessions.ts';
import { PositiveInt, responses } from '../../schemas/common.ts';
import { ReviewInput } from '../../schemas/reviews.ts';
import { documentRoutes } from '../document-routes.ts';

const params = Type.Object({ copyId: PositiveInt });
/** Rating writes one client may make per hour. */
export const REVIEW_WRITES_PER_HOUR = 60;

/** My rating of a book I received (beyond the spec): one per book, which I can change. */
const clientReviewRoutes: FastifyPluginAsyncTypebox = async (app) => {
  documentRoutes(app, { tags: ['Reviews'] });
  app.get(
    '/:copyId',
    {
      schema: {
        operationId: 'getMyReview',
        summary: "My rating of a copy's book, and whether I may rate it",
        params,
        response: responses(Type.Ref('MyReview'), 400, 401, 404),
      },
    },
    async (request) => ({ data: await app.reviews.mine(signedInClient(request).id, request.params.copyId) }),
  );

  app.put(
    '/:copyId',
    {
      // A client rates a few books an hour at most; more is a script. Counted per client, once the
      // session is known: each change of a rating makes every instance's catalog cache forget, and by
      // address a client moving from address to address (a /48 holds 65,536 /64s) was never counted.
      config: {
        rateLimit: {
          max: REVIEW_WRITES_PER_HOUR,
          timeWindow: '1 hour',
          hook: 'preHandler',
          keyGenerator: (request) => `client:${signedInClient(request).id}`,
        },
      },
      schema: {
        operationId: 'writeMyReview',
        summary: "Rate a copy's book 1 to 5 stars, with an optional review, once an order of it has shipped; again to change it",
        params,
        body: ReviewInput,
        response: responses(Type.Ref('MyReview'), 400, 401, 403, 404, 429),
      },
    },
    async (request) => ({ data: await app.reviews.write(signedInClient(request).id, request.params.copyId, request.body) }),
  );
};

export default clientReviewRoutes;

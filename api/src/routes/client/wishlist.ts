import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { signedInClient } from '../../plugins/sessions.ts';
import { PositiveInt, responses } from '../../schemas/common.ts';
import { documentRoutes } from '../document-routes.ts';

const params = Type.Object({ copyId: PositiveInt });
/** Wishlist changes (adds and removals, each counted on its own) one client may make per hour. */
export const WISHLIST_WRITES_PER_HOUR = 300;
/**
 * Counted per client once the session is known. A heart clicked on and off is a few a minute; a loop
 * is a script, and each add of a burst retries while the client's other adds run (wishlist-repository.ts).
 */
const wishlistWriteLimit = {
  rateLimit: {
    max: WISHLIST_WRITES_PER_HOUR,
    timeWindow: '1 hour',
    hook: 'preHandler' as const,
    keyGenerator: (request: FastifyRequest) => `client:${signedInClient(request).id}`,
  },
};

/** My wishlist and my back-in-stock notices (beyond the spec). */
const wishlistRoutes: FastifyPluginAsyncTypebox = async (app) => {
  documentRoutes(app, { tags: ['Wishlist'] });
  app.get(
    '/wishlist',
    {
      schema: {
        operationId: 'getWishlist',
        summary: 'My wished-for copies, newest first (at most 200)',
        response: responses(Type.Array(Type.Ref('WishlistBook')), 401),
      },
    },
    async (request) => ({ data: await app.wishlist.list(signedInClient(request).id) }),
  );

  app.put(
    '/wishlist/:copyId',
    {
      config: wishlistWriteLimit,
      schema: {
        operationId: 'addToWishlist',
        summary: 'Wish for a copy: a notice comes when it is back in stock',
        params,
        response: responses(Type.Boolean(), 400, 401, 404, 409, 429),
      },
    },
    async (request) => {
      await app.wishlist.add(signedInClient(request).id, request.params.copyId);
      return { data: true };
    },
  );

  app.delete(
    '/wishlist/:copyId',
    {
      config: wishlistWriteLimit,
      schema: {
        operationId: 'removeFromWishlist',
        summary: 'Stop wishing for a copy',
        params,
        response: responses(Type.Boolean(), 400, 401, 429),
      },
    },
    async (request) => {
      await app.wishlist.remove(signedInClient(request).id, request.params.copyId);
      return { data: true };
    },
  );

  app.get(
    '/notices',
    {
      schema: {
        operationId: 'getNotices',
        summary: 'My notices (a wished-for copy is back in stock): how many are unread, and 20 of them, the newest unread ones first',
        response: responses(Type.Object({ unread: Type.Integer(), notices: Type.Array(Type.Ref('ClientNotice')) }), 401),
      },
    },
    async (request) => ({ data: await app.wishlist.notices(signedInClient(request).id) }),
  );

  app.post(
    '/notices/read',
    {
      schema: {
        operationId: 'markNoticesRead',
        summary: 'Mark my notices read: all of them, or those the client was shown',
        querystring: Type.Object({
          upTo: Type.Optional(
            Type.Integer({
              ...PositiveInt,
              description: 'The newest notice the client saw: one that came after it (while the list was open) stays unread',
            }),
          ),
          from: Type.Optional(
            Type.Integer({
              ...PositiveInt,
              description: 'The oldest unread notice the client saw: older unread ones, past the 20 shown, stay unread for the next look',
            }),
          ),
        }),
        response: responses(Type.Boolean(), 400, 401),
      },
    },
    async (request) => {
      await app.wishlist.markRead(signedInClient(request).id, request.query.upTo, request.query.from);
      return { data: true };
    },
  );
};

export default wishlistRoutes;

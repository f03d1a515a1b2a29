import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { signedInClient } from '../../plugins/sessions.ts';
import { PositiveInt, responses } from '../../schemas/common.ts';
import { documentRoutes } from '../document-routes.ts';

const params = Type.Object({ copyId: PositiveInt });

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
      schema: {
        operationId: 'addToWishlist',
        summary: 'Wish for a copy: a notice comes when it is back in stock',
        params,
        response: responses(Type.Boolean(), 400, 401, 404, 409),
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
      schema: {
        operationId: 'removeFromWishlist',
        summary: 'Stop wishing for a copy',
        params,
        response: responses(Type.Boolean(), 400, 401),
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
        summary: 'My notices (a wished-for copy is back in stock): how many are unread, and the newest 20',
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
        summary: 'Mark my notices read: all of them, or those up to the newest one shown',
        querystring: Type.Object({
          upTo: Type.Optional(
            Type.Integer({
              ...PositiveInt,
              description: 'The newest notice the client saw: one that came after it (while the list was open) stays unread',
            }),
          ),
        }),
        response: responses(Type.Boolean(), 400, 401),
      },
    },
    async (request) => {
      await app.wishlist.markRead(signedInClient(request).id, request.query.upTo);
      return { data: true };
    },
  );
};

export default wishlistRoutes;

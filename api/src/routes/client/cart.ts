import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { signedInClient } from '../../plugins/sessions.ts';
import { Body, PositiveInt, responses } from '../../schemas/common.ts';
import { documentRoutes } from '../document-routes.ts';

const cartRoutes: FastifyPluginAsyncTypebox = async (app) => {
  documentRoutes(app, { tags: ['Cart'] });
  app.get(
    '',
    { schema: { operationId: 'getCart', summary: 'My cart', response: responses(Type.Array(Type.Ref('CartItem')), 401) } },
    async (request) => ({ data: await app.cart.list(signedInClient(request).id) }),
  );

  app.post(
    '/:bookCopyId',
    {
      schema: {
        operationId: 'addToCart',
        summary: 'Add one unit; returns the cart item id',
        params: Type.Object({ bookCopyId: PositiveInt }),
        response: responses(Type.Integer(), 400, 401, 404, 409),
      },
    },
    async (request) => ({ data: await app.cart.add(signedInClient(request).id, request.params.bookCopyId) }),
  );

  app.put(
    '/',
    {
      schema: {
        operationId: 'updateCartItem',
        summary: 'Set the quantity of a line (1 to stock; a decrease is always allowed)',
        body: Body({ quantity: Type.Integer({ minimum: 1, maximum: 100000 }), cartItemId: PositiveInt }),
        response: responses(Type.Boolean(), 400, 401, 404, 409),
      },
    },
    async (request) => {
      await app.cart.update(signedInClient(request).id, request.body.cartItemId, request.body.quantity);
      return { data: true };
    },
  );

  app.delete(
    '/:cartItemId',
    {
      schema: {
        operationId: 'removeCartItem',
        summary: 'Remove a line',
        params: Type.Object({ cartItemId: PositiveInt }),
        response: responses(Type.Boolean(), 400, 401, 404),
      },
    },
    async (request) => {
      await app.cart.remove(signedInClient(request).id, request.params.cartItemId);
      return { data: true };
    },
  );
};

export default cartRoutes;

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { signedInClient } from '../../plugins/sessions.ts';
import { PageSize, PositiveInt, responses } from '../../schemas/common.ts';
import { CheckoutBody } from '../../schemas/orders.ts';
import { documentRoutes } from '../document-routes.ts';

const orderRoutes: FastifyPluginAsyncTypebox = async (app) => {
  documentRoutes(app, { tags: ['Client orders'] });
  app.post(
    '/',
    {
      // Counted in shop_checkouts_total{outcome} (plugins/metrics.ts).
      config: { outcomeMetric: 'checkout' },
      schema: {
        operationId: 'placeOrder',
        summary: 'Check out the chosen cart lines',
        description:
          'Totals are recomputed on the server; a mismatch is a 409 whose error.details carries the current totals. ' +
          'An Idempotency-Key header makes a retried checkout return the first order; the same key with a different body is a 422.',
        headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 100 })) }),
        body: CheckoutBody,
        response: responses(Type.Ref('ClientOrder'), 400, 401, 404, 409, 422),
      },
    },
    async (request) => {
      const order = await app.orders.checkout(signedInClient(request).id, request.body, request.headers['idempotency-key']);
      return { data: order };
    },
  );

  app.post(
    '/:orderId/cancel',
    {
      schema: {
        operationId: 'cancelMyOrder',
        summary: 'Cancel my order while it is pending or Processing',
        description:
          "Puts the stock back in the same transaction and sends the status e-mail. Another client's order is a 404; " +
          'an order already cancelled, or shipped, is a 409 whose message says why (error.details.status is its status).',
        params: Type.Object({ orderId: PositiveInt }),
        response: responses(Type.Ref('ClientOrder'), 400, 401, 404, 409),
      },
    },
    async (request) => {
      const order = await app.orders.cancel(request.params.orderId, { clientId: signedInClient(request).id });
      return { data: order };
    },
  );

  app.get(
    '/:pageNumber,:pageSize',
    {
      schema: {
        operationId: 'listMyOrders',
        summary: 'My orders, newest first',
        params: Type.Object({ pageNumber: PositiveInt, pageSize: PageSize }),
        response: responses(Type.Object({ orders: Type.Array(Type.Ref('ClientOrder')), totalPages: Type.Integer() }), 400, 401),
      },
    },
    async (request) => ({
      data: await app.orders.clientPage(signedInClient(request).id, request.params.pageNumber, request.params.pageSize),
    }),
  );
};

export default orderRoutes;

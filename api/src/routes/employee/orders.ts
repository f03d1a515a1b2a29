import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { PositiveInt, responses } from '../../schemas/common.ts';
import { CancelOrderBody } from '../../schemas/orders.ts';
import { documentRoutes } from '../document-routes.ts';
import { pagedListRoute } from './schemas.ts';

/** The status the employee saw: an order no longer in it is left as it is (409 ORDER_STATUS_CHANGED). */
const StatusSeen = Type.Object({
  from: Type.Optional(
    Type.String({
      maxLength: 40,
      description:
        'Beyond the spec: the status the employee saw. An order no longer in it keeps its status (409 ORDER_STATUS_CHANGED, with the status it has).',
    }),
  ),
});

const orderRoutes: FastifyPluginAsyncTypebox = async (app) => {
  documentRoutes(app, { tags: ['Back-office orders'] });
  const summary = 'All orders, newest first, with their items';
  pagedListRoute(app, ['listAllOrders', summary], { orders: 'BackofficeOrder' }, app.orders.backofficePage);

  app.put(
    '/set-status/:orderId,:status',
    {
      schema: {
        operationId: 'setOrderStatus',
        summary: 'Set an order to Processing or Shipped',
        description:
          'A cancelled or failed order holds no stock and keeps its status (409 ORDER_STATUS_KEPT): made Processing or Shipped it would ' +
          'count as sold, and a cancel would put back stock it never took.',
        params: Type.Object({ orderId: PositiveInt, status: Type.String({ maxLength: 40 }) }),
        querystring: StatusSeen,
        response: responses(Type.String(), 400, 401, 403, 404, 409),
      },
    },
    async (request) => ({ data: await app.orders.setStatus(request.params.orderId, request.params.status, request.query.from) }),
  );

  app.post(
    '/:orderId/cancel',
    {
      schema: {
        operationId: 'cancelOrder',
        summary: 'Cancel an order that has not shipped, with a reason',
        description:
          'Beyond the spec. For a pending or Processing order: puts its stock back in the same transaction, and the ' +
          "reason goes into the audit log and the client's status e-mail. A cancelled or shipped order is a 409.",
        params: Type.Object({ orderId: PositiveInt }),
        querystring: StatusSeen,
        body: CancelOrderBody,
        response: responses(Type.Ref('ClientOrder'), 400, 401, 403, 404, 409),
      },
    },
    async (request) => {
      const order = await app.orders.cancel(request.params.orderId, { reason: request.body.reason, from: request.query.from });
      return { data: order };
    },
  );
};

export default orderRoutes;

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { PositiveInt, responses } from '../../schemas/common.ts';
import { documentRoutes } from '../document-routes.ts';
import { pagedListRoute } from './schemas.ts';

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
        params: Type.Object({ orderId: PositiveInt, status: Type.String({ maxLength: 40 }) }),
        response: responses(Type.String(), 400, 401, 403, 404),
      },
    },
    async (request) => ({ data: await app.orders.setStatus(request.params.orderId, request.params.status) }),
  );
};

export default orderRoutes;

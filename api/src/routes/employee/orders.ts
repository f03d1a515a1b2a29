import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { PageSize, PositiveInt, responses } from '../../schemas/common.ts';
import { security } from './schemas.ts';

const tags = ['Back-office orders'];

const orderRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/:pageNumber,:pageSize',
    {
      schema: {
        operationId: 'listAllOrders',
        tags,
        security,
        summary: 'All orders, newest first, with their items',
        params: Type.Object({ pageNumber: PositiveInt, pageSize: PageSize }),
        response: responses(Type.Object({ orders: Type.Array(Type.Ref('BackofficeOrder')), totalPages: Type.Integer() }), 400, 401, 403),
      },
    },
    async (request) => ({ data: await app.orders.backofficePage(request.params.pageNumber, request.params.pageSize) }),
  );

  app.put(
    '/set-status/:orderId,:status',
    {
      schema: {
        operationId: 'setOrderStatus',
        tags,
        security,
        summary: 'Set an order to Processing or Shipped',
        params: Type.Object({ orderId: PositiveInt, status: Type.String({ maxLength: 40 }) }),
        response: responses(Type.String(), 400, 401, 403, 404),
      },
    },
    async (request) => ({ data: await app.orders.setStatus(request.params.orderId, request.params.status) }),
  );
};

export default orderRoutes;

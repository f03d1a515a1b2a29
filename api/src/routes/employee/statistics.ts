import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { responses } from '../../schemas/common.ts';
import { security } from './schemas.ts';

const tags = ['Back-office dashboard'];

const statisticsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/',
    {
      schema: {
        operationId: 'getDashboardSummary',
        tags,
        security,
        summary: 'Totals of orders, books, book copies and clients',
        response: responses(
          Type.Object({
            totalOrders: Type.Integer(),
            totalBooks: Type.Integer(),
            totalBooksCopies: Type.Integer(),
            totalClients: Type.Integer(),
          }),
          401,
          403,
        ),
      },
    },
    async () => ({ data: await app.dashboard.summary() }),
  );

  app.get(
    '/resent-orders/',
    {
      schema: {
        operationId: 'listRecentOrders',
        tags,
        security,
        summary: 'The 10 most recent orders',
        response: responses(
          Type.Array(
            Type.Object({
              id: Type.Integer(),
              clientId: Type.Integer(),
              totalQuantity: Type.Integer(),
              totalPrice: Type.Number(),
              status: Type.String(),
              createdAt: Type.String({ format: 'date-time' }),
            }),
          ),
          401,
          403,
        ),
      },
    },
    async () => ({ data: await app.dashboard.recentOrders() }),
  );

  app.get(
    '/new-clients/',
    {
      schema: {
        operationId: 'listNewClients',
        tags,
        security,
        summary: 'The 10 newest clients',
        response: responses(Type.Array(Type.Ref('ClientRow')), 401, 403),
      },
    },
    async () => ({ data: await app.dashboard.newClients() }),
  );
};

export default statisticsRoutes;

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { responses } from '../../schemas/common.ts';
import { documentRoutes } from '../document-routes.ts';

const statisticsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  documentRoutes(app, { tags: ['Back-office dashboard'] });
  app.get(
    '/',
    {
      schema: {
        operationId: 'getDashboardSummary',
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
        summary: 'The 10 newest clients',
        response: responses(Type.Array(Type.Ref('ClientRow')), 401, 403),
      },
    },
    async () => ({ data: await app.dashboard.newClients() }),
  );

  // The charts below the spec's cards and tables (beyond the spec): one call, one SQL aggregate each.
  app.get(
    '/charts/daily-sales',
    {
      schema: {
        operationId: 'getDailySales',
        summary: 'Orders and revenue for each of the last 30 days (UTC), cancelled and failed orders left out',
        response: responses(Type.Array(Type.Ref('SalesDay')), 401, 403),
      },
    },
    async () => ({ data: await app.salesCharts.dailySales() }),
  );

  app.get(
    '/charts/category-units',
    {
      schema: {
        operationId: 'getCategoryUnits',
        summary: 'Units sold per category in the last 30 days, most first',
        response: responses(Type.Array(Type.Ref('CategoryUnits')), 401, 403),
      },
    },
    async () => ({ data: await app.salesCharts.categoryUnits() }),
  );

  app.get(
    '/charts/status-mix',
    {
      schema: {
        operationId: 'getOrderStatusMix',
        summary: 'Orders of the last 30 days by status',
        response: responses(Type.Array(Type.Ref('StatusCount')), 401, 403),
      },
    },
    async () => ({ data: await app.salesCharts.statusMix() }),
  );
};

export default statisticsRoutes;

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdempotencyKeyHeader, OptionalPaging, PositiveInt, responses } from '../../schemas/common.ts';
import { LowStockQuery, RestockInput, ThresholdInput } from '../../schemas/staff.ts';
import { documentRoutes } from '../document-routes.ts';

/** The Low Stock screen's reads and restock (beyond the spec): Admin and Seller. */
export const lowStockRoutes: FastifyPluginAsyncTypebox = async (app) => {
  documentRoutes(app, { tags: ['Back-office low stock'] });
  app.get(
    '/',
    {
      schema: {
        operationId: 'listLowStock',
        summary: "Copies at or below the Admin's threshold, the fastest sellers of the last 30 days first",
        querystring: LowStockQuery,
        response: responses(Type.Ref('LowStockPage'), 400, 401, 403),
      },
    },
    async (request) => ({ data: await app.lowStock.page(request.query.pageNumber, request.query.pageSize) }),
  );

  app.get(
    '/:copyId/movements',
    {
      schema: {
        operationId: 'listStockMovements',
        summary: "A page of a copy's stock movements, newest first: each change of its stock and why (decision record 12)",
        params: Type.Object({ copyId: PositiveInt }),
        querystring: OptionalPaging,
        response: responses(
          Type.Object({ movements: Type.Array(Type.Ref('StockMovement')), totalPages: Type.Integer() }),
          400,
          401,
          403,
          404,
        ),
      },
    },
    async (request) => {
      const { pageNumber = 1, pageSize = 20 } = request.query;
      return { data: await app.catalogAdmin.stockMovements(request.params.copyId, pageNumber, pageSize) };
    },
  );

  app.post(
    '/:copyId/restock',
    {
      schema: {
        operationId: 'restockCopy',
        summary: "Add units to a copy's stock; clients who wish for it hear it is back (the audit log records it)",
        description:
          'An Idempotency-Key header makes a retried restock add nothing more and answer the stock now; ' +
          'the same key with another copy or number of units is a 422.',
        params: Type.Object({ copyId: PositiveInt }),
        headers: IdempotencyKeyHeader,
        body: RestockInput,
        response: responses(Type.Object({ quantity: Type.Integer() }), 400, 401, 403, 404, 422),
      },
    },
    async (request) => {
      const quantity = await app.lowStock.restock(request.params.copyId, request.body.add, request.headers['idempotency-key']);
      return { data: { quantity } };
    },
  );
};

/** The threshold itself: the Admin's to set. */
export const lowStockThresholdRoutes: FastifyPluginAsyncTypebox = async (app) => {
  documentRoutes(app, { tags: ['Back-office low stock'] });
  app.put(
    '/threshold',
    {
      schema: {
        operationId: 'setLowStockThreshold',
        summary: 'Set how few units put a copy on the Low Stock screen',
        body: ThresholdInput,
        response: responses(Type.Object({ threshold: Type.Integer() }), 400, 401, 403),
      },
    },
    async (request) => ({ data: { threshold: await app.lowStock.setThreshold(request.body.threshold) } }),
  );
};

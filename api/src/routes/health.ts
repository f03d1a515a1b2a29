import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../lib/errors.ts';
import { responses } from '../lib/schemas.ts';

const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/health',
    {
      schema: {
        operationId: 'health',
        tags: ['Health'],
        summary: 'Liveness and database reachability',
        response: responses(Type.Object({ status: Type.Literal('ok'), database: Type.Literal('ok') }), 503),
      },
    },
    async () => {
      try {
        await app.prisma.$queryRaw`SELECT 1`;
      } catch {
        throw new AppError(503, 'DATABASE_UNAVAILABLE', 'The database is not reachable.');
      }
      return { data: { status: 'ok' as const, database: 'ok' as const } };
    },
  );
};

export default healthRoutes;

// Health for orchestrators and balancers. Liveness (/health/live) says only that the process answers:
// restarting it would not help while the database is away. Readiness (/health/ready) says this
// instance can serve: the database answers and has every migration this build ships.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../lib/errors.ts';
import { responses } from '../schemas/common.ts';

/** The repository's (and the Docker image's) prisma/migrations, beside api/. */
export const MIGRATIONS_DIR = path.resolve(import.meta.dirname, '../../../prisma/migrations');

const tags = ['Health'];
const Ok = Type.Literal('ok');

const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const databaseAnswers = async () => {
    try {
      await app.prisma.$queryRaw`SELECT 1`;
    } catch {
      throw new AppError(503, 'DATABASE_UNAVAILABLE', 'The database is not reachable.', { 'retry-after': '2' });
    }
  };

  // Applied migrations stay applied: once all are there, readiness only needs the database to answer.
  let migrationsApplied = false;
  // Which migrations are missing is for the operator's log, not for whoever asks (readiness is public
  // through the proxy): written when the list changes, not at every probe.
  let pendingLogged = '';
  const pendingMigrations = async () => {
    const shipped = (await readdir(MIGRATIONS_DIR, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
    const applied = await app.prisma.$queryRaw<{ migration_name: string }[]>`
      SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`.catch(() => {
      throw new AppError(503, 'DATABASE_UNAVAILABLE', 'The database is not reachable.', { 'retry-after': '2' });
    });
    const done = new Set(applied.map((m) => m.migration_name));
    return shipped.filter((name) => !done.has(name)).sort();
  };

  app.get(
    '/health',
    {
      schema: {
        operationId: 'health',
        tags,
        summary: 'The process is up and the database answers (see also /health/live and /health/ready)',
        response: responses(Type.Object({ status: Ok, database: Ok }), 503),
      },
    },
    async () => {
      await databaseAnswers();
      return { data: { status: 'ok' as const, database: 'ok' as const } };
    },
  );

  app.get(
    '/health/live',
    {
      schema: {
        operationId: 'healthLive',
        tags,
        summary: 'Liveness: the process is up and answering (the database is not consulted)',
        response: responses(Type.Object({ status: Ok })),
      },
    },
    async () => ({ data: { status: 'ok' as const } }),
  );

  app.get(
    '/health/ready',
    {
      schema: {
        operationId: 'healthReady',
        tags,
        summary: 'Readiness: the database answers and every migration of this build is applied',
        response: responses(Type.Object({ status: Ok, database: Ok, migrations: Ok }), 503),
      },
    },
    async () => {
      if (!migrationsApplied) {
        const pending = await pendingMigrations();
        if (pending.length) {
          if (pending.join() !== pendingLogged) {
            pendingLogged = pending.join();
            app.log.warn({ pending }, 'not ready: the database lacks migrations of this build (npm run db:migrate applies them)');
          }
          throw new AppError(503, 'MIGRATIONS_PENDING', 'The database lacks migrations of this build.', { 'retry-after': '5' });
        }
        migrationsApplied = true;
      } else {
        await databaseAnswers();
      }
      return { data: { status: 'ok' as const, database: 'ok' as const, migrations: 'ok' as const } };
    },
  );
};

export default healthRoutes;

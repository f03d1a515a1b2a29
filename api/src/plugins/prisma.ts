import { PrismaPg } from '@prisma/adapter-pg';
import fp from 'fastify-plugin';
import { PrismaClient } from '../generated/prisma/client.ts';

declare module 'fastify' {
  interface FastifyInstance {
    prisma: PrismaClient;
  }
}

export type Db = PrismaClient;

export interface PrismaPluginOptions {
  /** Called with each SQL statement: lets tests and benchmarks count queries per request. */
  onQuery?: (sql: string) => void;
}

export default fp<PrismaPluginOptions>(
  async (app, { onQuery }) => {
    const adapter = new PrismaPg({ connectionString: app.config.databaseUrl });
    const prisma = onQuery ? new PrismaClient({ adapter, log: [{ emit: 'event', level: 'query' }] }) : new PrismaClient({ adapter });
    if (onQuery) (prisma as PrismaClient<'query'>).$on('query', (event) => onQuery(event.query));
    await prisma.$connect();
    app.decorate('prisma', prisma);
    app.addHook('onClose', () => prisma.$disconnect());
  },
  { name: 'prisma', dependencies: ['config'] },
);

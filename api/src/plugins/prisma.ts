import { PrismaPg } from '@prisma/adapter-pg';
import fp from 'fastify-plugin';
import { PrismaClient } from '../generated/prisma/client.ts';

declare module 'fastify' {
  interface FastifyInstance {
    prisma: PrismaClient;
  }
}

export type Db = PrismaClient;

export default fp(
  async (app) => {
    const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: app.config.databaseUrl }) });
    await prisma.$connect();
    app.decorate('prisma', prisma);
    app.addHook('onClose', () => prisma.$disconnect());
  },
  { name: 'prisma', dependencies: ['config'] },
);

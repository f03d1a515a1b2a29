// Standard Prisma config so the ordinary Prisma CLI works on this repo where it can download its engine.
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations', seed: 'tsx seed/seed.ts' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://bookshop:bookshop@localhost:5432/bookshop' },
});

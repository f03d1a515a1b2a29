// Standard Prisma config so the ordinary Prisma CLI works on this repo where it can download its engine.
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations', seed: 'tsx seed/seed.ts' },
  // Unset, the database `npm start` keeps in .data/postgres (scripts/lib/database.ts), while it runs.
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://bookshop:bookshop@127.0.0.1:54329/bookshop' },
});

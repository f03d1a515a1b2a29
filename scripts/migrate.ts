// `npm run db:migrate` applies prisma/migrations; `npm run db:diff <name>` writes a new migration
// from the difference between the migrations and schema.prisma; `npm run db:check` fails when they differ.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { withDatabase } from './lib/database.ts';
import { applyMigrations, diffMigrationsToSchema, migrationsDir } from './lib/schema-engine.ts';

const [command, name] = process.argv.slice(2);

await withDatabase(async (url) => {
  if (command === 'check') {
    const sql = await diffMigrationsToSchema(url);
    if (sql) {
      console.error(`prisma/migrations and schema.prisma disagree; a migration would need:\n${sql}`);
      process.exitCode = 1;
    } else console.log('prisma/migrations and schema.prisma agree.');
  } else if (command === 'diff') {
    const sql = await diffMigrationsToSchema(url);
    if (!sql) {
      console.log('schema.prisma and the migrations agree: nothing to write.');
      return;
    }
    const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
    const dir = path.join(migrationsDir, `${stamp}_${name ?? 'change'}`);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'migration.sql'), `${sql}\n`);
    console.log(`wrote ${path.relative(process.cwd(), dir)}/migration.sql`);
  } else {
    const applied = await applyMigrations(url);
    console.log(applied.length ? `applied ${applied.join(', ')}` : 'database is up to date');
  }
});

// Decision 14: one way to the database. Every Prisma and SQL call lives in a module's
// *-repository.ts or *-queries.ts; a service (*-service.ts) takes its repositories, built by
// plugins/services.ts on the handles, and imports neither the Prisma client, pg, nor a handle
// (plugins/prisma.ts: Db, SqlReader, SqlWriter). A service that breaks the rule fails here.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const modules = path.resolve(import.meta.dirname, '../api/src/modules');

/**
 * Services that still take a handle, each moving to repositories in its own change (the list only
 * shrinks: a service listed here that keeps the rule fails too, so it leaves the list).
 */
const NOT_YET: Record<string, string> = {
  'catalog/catalog-service.ts': 'takes the catalog reader; the catalog module is being reworked (browse and search)',
};

/** What a service may not hold: an import of the database's client or a handle, or a call of its own. */
const FORBIDDEN: [RegExp, string][] = [
  [/from '[^']*generated\/prisma[^']*'/, 'imports the Prisma client'],
  [/from '@prisma\/[^']*'/, 'imports Prisma'],
  [/from 'pg'/, 'imports pg'],
  [/from '[^']*plugins\/prisma(\.ts)?'/, 'imports a database handle (plugins/prisma.ts)'],
  [/\$(queryRaw|executeRaw|queryRawUnsafe|executeRawUnsafe|transaction)\b/, 'runs Prisma itself'],
  [
    /\b(db|tx|prisma)\.\w+\.(findMany|findUnique|findFirst|count|create|createMany|update|updateMany|upsert|delete|deleteMany|aggregate|groupBy)\(/,
    'calls a Prisma model',
  ],
  [/\b(sql|db|pool|client)\.query\(/, 'runs SQL itself'],
];

const services = () =>
  readdirSync(modules, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((dir) =>
      readdirSync(path.join(modules, dir.name))
        .filter((name) => name.endsWith('-service.ts'))
        .map((name) => `${dir.name}/${name}`),
    )
    .sort();

const breaches = (file: string) => {
  const text = readFileSync(path.join(modules, file), 'utf8');
  return FORBIDDEN.filter(([pattern]) => pattern.test(text)).map(([, what]) => what);
};

describe('one way to the database (decision 14)', () => {
  it('no service imports Prisma, pg or a database handle, or queries the database itself', () => {
    const found = services()
      .filter((file) => !(file in NOT_YET))
      .flatMap((file) => breaches(file).map((what) => `${file} ${what}: move the call into the module's repository`));
    expect(found).toEqual([]);
  });

  it('the services not yet moved still need their place on the list', () => {
    const all = services();
    for (const file of Object.keys(NOT_YET)) {
      expect(all, `${file} no longer exists: take it off the list`).toContain(file);
      expect(breaches(file), `${file} keeps the rule now: take it off the list`).not.toEqual([]);
    }
  });

  it('knows a breach when it sees one', () => {
    const text = "import type { Db } from '../../plugins/prisma.ts';\nconst rows = await db.bookReview.findMany({});";
    expect(FORBIDDEN.filter(([pattern]) => pattern.test(text)).map(([, what]) => what)).toEqual([
      'imports a database handle (plugins/prisma.ts)',
      'calls a Prisma model',
    ]);
  });
});

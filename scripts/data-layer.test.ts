// Decision 14: one way to the database. Every Prisma and SQL call lives in a module's
// *-repository.ts or *-queries.ts; a service (*-service.ts) takes its repositories, built by
// plugins/services.ts on the handles, and imports neither the Prisma client, pg, nor a handle
// (plugins/prisma.ts: Db, SqlReader, SqlWriter). A service that breaks the rule fails here.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const modules = path.resolve(import.meta.dirname, '../api/src/modules');

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

/** The code under api/src, but what Prisma generated. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(file);
    return entry.name.endsWith('.ts') ? [file] : [];
  });
}

describe('one way to the database (decision 14)', () => {
  it('runs no batch transaction: Prisma runs one at the next tick, outside its caller (decision 18)', () => {
    const files = sourceFiles(path.resolve(modules, '..'));
    expect(files.length).toBeGreaterThan(50);
    // A batch's COMMIT would be checked against whichever request asked first in that tick.
    const batches = files.filter((file) => /\$transaction\(\s*\[/.test(readFileSync(file, 'utf8')));
    expect(batches.map((file) => path.relative(modules, file))).toEqual([]);
  });

  it('no service imports Prisma, pg or a database handle, or queries the database itself', () => {
    const all = services();
    // The modules are where this reads them: a wrong path would find no service and pass.
    expect(all.length).toBeGreaterThan(10);
    const found = all.flatMap((file) => breaches(file).map((what) => `${file} ${what}: move the call into the module's repository`));
    expect(found).toEqual([]);
  });

  it('knows a breach when it sees one', () => {
    const text = "import type { Db } from '../../plugins/prisma.ts';\nconst rows = await db.bookReview.findMany({});";
    expect(FORBIDDEN.filter(([pattern]) => pattern.test(text)).map(([, what]) => what)).toEqual([
      'imports a database handle (plugins/prisma.ts)',
      'calls a Prisma model',
    ]);
  });
});

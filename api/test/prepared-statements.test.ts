// Prepared statements are bounded: a browse page's text depends on its sort and on which filters are
// present, thousands of shapes that any stranger can choose, and each one prepared holds about half a
// megabyte in the database connection that ran it. Past PREPARED_SHAPES_MOST shapes, a shape runs
// unnamed and its answer is the same; the code's own statements are always prepared.
import { describe, expect, it } from 'vitest';
import { BROWSE_SORTS } from '../src/modules/catalog/browse-queries.ts';
import { DETAIL_SQL } from '../src/modules/catalog/catalog-queries.ts';
import { PREPARED_SHAPES_MOST, statementRegistry } from '../src/plugins/prisma.ts';
import { createTestApp } from './helpers.ts';

// One connection, so that its prepared statements are all the app's.
const t = await createTestApp({ env: { DATABASE_POOL_SIZE: '1' } });

const FILTERS = {
  priceMin: '5',
  priceMax: '40',
  inStock: 'true',
  minRating: '3',
  yearFrom: '1990',
  yearTo: '2020',
} as const;

/** Every subset of the filters: 64 shapes a sort. */
const filterSubsets = () => {
  const names = Object.keys(FILTERS) as (keyof typeof FILTERS)[];
  return Array.from({ length: 2 ** names.length }, (_, bits) => names.filter((_, i) => bits & (1 << i)));
};

/** The statements prepared on the app's connection whose text begins as `start`. */
const preparedStarting = async (start: string) =>
  (
    await t.app.databasePool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM pg_prepared_statements WHERE starts_with(statement, $1)',
      [start],
    )
  ).rows[0]!.n;

describe('prepared statements', () => {
  it('names the first texts only', () => {
    const registry = statementRegistry(2);
    const first = registry.statement('SELECT 1', []);
    const second = registry.statement('SELECT 2', [7]);
    const third = registry.statement('SELECT 3', []);
    expect(first.name).toMatch(/^shop_/);
    expect(second).toMatchObject({ name: expect.stringMatching(/^shop_/), text: 'SELECT 2', values: [7] });
    expect(third).toEqual({ text: 'SELECT 3', values: [] });
    expect(registry.size).toBe(2);
    // The same text built again is the same statement.
    expect(registry.statement(['SELECT', '1'].join(' '), [1]).name).toBe(first.name);
  });

  it('keeps at most PREPARED_SHAPES_MOST browse shapes in the database however many are asked, and still prepares its own statements', {
    timeout: 60_000,
  }, async () => {
    const shapes = BROWSE_SORTS.flatMap((sort) => filterSubsets().map((filters) => ({ sort, filters })));
    expect(shapes.length).toBeGreaterThan(PREPARED_SHAPES_MOST);
    for (const { sort, filters } of shapes) {
      const query = new URLSearchParams({ sort, ...Object.fromEntries(filters.map((f) => [f, FILTERS[f]])) });
      const answer = await t.app.inject({ url: `/api/public/book-copy/browse/Fantasy?${query}` });
      expect(answer.statusCode, answer.body).toBe(200);
    }
    const browseStart = '\n  WITH category AS';
    expect(await preparedStarting(browseStart)).toBe(PREPARED_SHAPES_MOST);
    // A fixed statement first run after the shapes filled their bound is prepared all the same.
    expect(await preparedStarting(DETAIL_SQL)).toBe(0);
    expect((await t.app.inject({ url: '/api/public/book-copy/by-id/1' })).statusCode).toBe(200);
    expect(await preparedStarting(DETAIL_SQL)).toBe(1);
  });
});

// Prepared statements are bounded: a browse page's text depends on its sort and on which filters are
// present, thousands of shapes that any stranger can choose, and each one prepared holds about half a
// megabyte in the database connection that ran it. Past PREPARED_STATEMENTS_MOST texts, statements
// run unnamed and every answer is the same.
import { describe, expect, it } from 'vitest';
import { BROWSE_SORTS } from '../src/modules/catalog/browse-queries.ts';
import { PREPARED_STATEMENTS_MOST, statementRegistry } from '../src/plugins/prisma.ts';
import { createTestApp } from './helpers.ts';

// One connection, so that the count of its prepared statements is the app's.
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

describe('prepared statements', () => {
  it('names the first texts only, and hands every connection one copy of each', () => {
    const registry = statementRegistry(2);
    const first = registry.statement('SELECT 1', []);
    const second = registry.statement('SELECT 2', [7]);
    const third = registry.statement('SELECT 3', []);
    expect(first.name).toMatch(/^shop_/);
    expect(second).toMatchObject({ name: expect.stringMatching(/^shop_/), text: 'SELECT 2', values: [7] });
    expect(third).toEqual({ text: 'SELECT 3', values: [] });
    expect(registry.size).toBe(2);
    // The same text built again is the same statement, with the first copy of its text.
    const again = registry.statement(['SELECT', '1'].join(' '), [1]);
    expect(again.name).toBe(first.name);
    expect(again.text).toBe(first.text);
  });

  it('keeps at most PREPARED_STATEMENTS_MOST in the database however many shapes of browse page are asked', {
    timeout: 60_000,
  }, async () => {
    const shapes = BROWSE_SORTS.flatMap((sort) => filterSubsets().map((filters) => ({ sort, filters })));
    expect(shapes.length).toBeGreaterThan(PREPARED_STATEMENTS_MOST);
    for (const { sort, filters } of shapes) {
      const query = new URLSearchParams({ sort, ...Object.fromEntries(filters.map((f) => [f, FILTERS[f]])) });
      const answer = await t.app.inject({ url: `/api/public/book-copy/browse/Fantasy?${query}` });
      expect(answer.statusCode, answer.body).toBe(200);
    }
    const { rows } = await t.app.databasePool.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_prepared_statements');
    expect(rows[0]!.n).toBeLessThanOrEqual(PREPARED_STATEMENTS_MOST);
    expect(rows[0]!.n).toBeGreaterThan(PREPARED_STATEMENTS_MOST / 2);
  });
});

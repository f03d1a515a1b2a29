import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

describe('OpenAPI', () => {
  it('the committed openapi.yaml is exactly what the API serves (run `npm run generate:openapi` after changing a route)', async () => {
    const served = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const committed = parse(await readFile(path.resolve(import.meta.dirname, '../../openapi.yaml'), 'utf8'));
    expect(served).toEqual(committed);
  });

  it("names the spec's comma-separated paths as written, with an operationId on every operation", async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(doc.paths).toHaveProperty(['/api/public/book-copy/by-type/{type},{pageNumber},{pageSize}']);
    expect(doc.paths).toHaveProperty(['/api/employee/author/{id},{name}']);
    for (const [p, ops] of Object.entries(doc.paths as Record<string, Record<string, { operationId?: string }>>)) {
      for (const [m, op] of Object.entries(ops)) expect(op.operationId, `${m} ${p}`).toBeTruthy();
    }
  });

  it('serves Swagger UI', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(res.statusCode).toBe(200);
  });
});

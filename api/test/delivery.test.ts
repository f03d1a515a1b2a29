// Compressed delivery: JSON answers above 1 KB leave brotli- or gzip-compressed, small ones plain.
import { createHash } from 'node:crypto';
import { utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, webDistOf } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

describe('compressed JSON', () => {
  const url = '/api/public/book-copy/by-type/Fantasy,1,50';

  it('answers brotli when accepted, and the body is the same JSON', async () => {
    const plain = await t.app.inject({ method: 'GET', url });
    const br = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br, gzip' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
  });

  it('answers gzip to a client that only takes gzip', async () => {
    const gz = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString()).data.booksCopies).toHaveLength(50);
  });

  it('leaves answers under 1 KB uncompressed', async () => {
    const small = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'accept-encoding': 'br, gzip' } });
    expect(small.headers['content-encoding']).toBeUndefined();
  });
});

describe("the pages' inline stylesheet", () => {
  const hashOf = (css: string) => `'sha256-${createHash('sha256').update(css).digest('base64')}'`;
  const styleSrc = (policy: unknown) => /style-src ([^;]*)/.exec(String(policy))?.[1];

  it('is allowed by its hash alone, and a rebuild under the running server is allowed at once', async () => {
    const page = (css: string) => `<!doctype html><html><head><title>Bookshop</title><style>${css}</style></head><body></body></html>`;
    const dist = webDistOf(page('body{color:red}'));
    const web = await createTestApp({ env: { WEB_DIST: dist } });

    const first = await web.app.inject({ method: 'GET', url: '/' });
    expect(styleSrc(first.headers['content-security-policy'])).toBe(`'self' ${hashOf('body{color:red}')}`);

    // A later mtime, as a rebuild leaves: the next answer allows the new block, and only it.
    writeFileSync(path.join(dist, 'index.html'), page('body{color:blue}'));
    writeFileSync(path.join(dist, 'shell.html'), page('body{color:blue}'));
    const later = new Date(Date.now() + 5_000);
    for (const file of ['index.html', 'shell.html']) utimesSync(path.join(dist, file), later, later);
    const second = await web.app.inject({ method: 'GET', url: '/cart' });
    expect(styleSrc(second.headers['content-security-policy'])).toBe(`'self' ${hashOf('body{color:blue}')}`);
  });
});

describe('the web build', () => {
  it("answers 404 for a built asset it does not have (an earlier build's chunk), and the app for a screen's address", async () => {
    const web = await createTestApp({
      env: { WEB_DIST: webDistOf('<!doctype html><html><head><title>Bookshop</title></head><body></body></html>') },
    });
    const gone = await web.app.inject({ method: 'GET', url: '/assets/cart-page-1a2b3c.js' });
    expect(gone.statusCode).toBe(404);
    expect(gone.headers['content-type']).toMatch(/^text\/plain/);
    expect(gone.headers['cache-control']).toBe('no-cache');
    const screen = await web.app.inject({ method: 'GET', url: '/cart' });
    expect(screen.statusCode).toBe(200);
    expect(screen.headers['content-type']).toMatch(/^text\/html/);
  });
});

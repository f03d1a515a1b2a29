// The proxy in front of the app (docker/nginx.conf) lets through every call the app would answer:
// its body sizes and read timeouts are checked here against the app's own limits, which are the one
// place they are set (api/src/request-limits.ts, and REQUEST_TIMEOUT_MS's default in config.ts).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../api/src/config.ts';
import { writeGraceMs } from '../api/src/lib/write-budget.ts';
import { PROVIDER_ROUTE_TIME_LIMIT_MS } from '../api/src/plugins/identity.ts';
import { CHECK_TIME_LIMIT_MS, IMPORT_BODY_LIMIT } from '../api/src/request-limits.ts';

const root = path.resolve(import.meta.dirname, '..');
const nginx = (await readFile(path.join(root, 'docker/nginx.conf'), 'utf8')).replace(/#.*$/gm, '');

/** The text inside the braces that follow `header`, or undefined. */
function block(text: string, header: RegExp): string | undefined {
  const match = header.exec(text);
  if (!match) return undefined;
  let depth = 0;
  const start = text.indexOf('{', match.index);
  for (let i = start; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return text.slice(start + 1, i);
  }
  throw new Error(`unbalanced braces after ${header}`);
}
/** A directive of this block itself, not of the blocks inside it. */
function directive(text: string, name: string): string | undefined {
  let own = text;
  for (let inner = block(own, /\{/); inner !== undefined; inner = block(own, /\{/)) own = own.replace(`{${inner}}`, ';');
  return new RegExp(`(?:^|[;\\s])${name}\\s+([^;]+);`).exec(own)?.[1]?.trim();
}
const bytes = (size: string) => {
  const [, amount, unit = ''] = /^(\d+)([kmg]?)$/i.exec(size)!;
  return Number(amount) * { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[unit.toLowerCase()]!;
};
const milliseconds = (time: string) => {
  const [, amount, unit = 's'] = /^(\d+)(ms|s|m|h)?$/.exec(time)!;
  return Number(amount) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[unit]!;
};

const server = block(nginx, /^\s*server\s*\{/m)!;
const locations = [...server.matchAll(/location\s+(=\s*)?(\S+)\s*\{/g)].map((m) => ({ exact: Boolean(m[1]), path: m[2]! }));
/** The location nginx picks for a path: an exact match, else the longest prefix. */
function locationFor(url: string) {
  const exact = locations.find((l) => l.exact && l.path === url);
  const chosen = exact ?? locations.filter((l) => !l.exact && url.startsWith(l.path)).sort((a, b) => b.path.length - a.path.length)[0]!;
  const body = block(server, new RegExp(`location\\s+${chosen.exact ? '=\\s*' : ''}${chosen.path.replaceAll('/', '\\/')}\\s*\\{`))!;
  // A directive not set in the location is inherited from the server.
  return (name: string) => directive(body, name) ?? directive(server, name);
}

/** How long past its budget a write under way holds its answer (decision 18). */
const writeGrace = writeGraceMs(loadConfig({ NODE_ENV: 'test', DATABASE_URL: 'postgresql://x/y' }).database);

describe('the proxy and the app agree on limits', () => {
  it('the catalog import: the proxy takes a file as large as the app does, and waits as long as a dry run may take', async () => {
    const openapi = parse(await readFile(path.join(root, 'openapi.yaml'), 'utf8')) as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    const importPath = Object.entries(openapi.paths).find(([, ops]) => ops.post?.operationId === 'checkCatalogImport')![0];
    const limit = locationFor(importPath);
    expect(bytes(limit('client_max_body_size')!)).toBeGreaterThanOrEqual(IMPORT_BODY_LIMIT);
    expect(milliseconds(limit('proxy_read_timeout')!)).toBeGreaterThan(CHECK_TIME_LIMIT_MS + writeGrace);
    expect(limit('proxy_pass')).toBe('http://shop');
  });

  it('a sign-up and a password reset: the proxy waits longer than their own budget, which the identity provider needs', () => {
    for (const url of ['/api/public/sign-up/', '/api/public/password-reset/']) {
      const limit = locationFor(url);
      expect(milliseconds(limit('proxy_read_timeout')!), url).toBeGreaterThan(PROVIDER_ROUTE_TIME_LIMIT_MS + writeGrace);
      expect(limit('proxy_pass')).toBe('http://shop');
    }
  });

  it("every other call: the proxy waits longer than the app's request budget, which answers 503 itself", async () => {
    const compose = parse(await readFile(path.join(root, 'docker-compose.yml'), 'utf8'));
    const budget = Number(
      compose.services.app.environment.REQUEST_TIMEOUT_MS ??
        loadConfig({ NODE_ENV: 'test', DATABASE_URL: 'postgresql://x/y' }).requestTimeoutMs,
    );
    const limit = locationFor('/api/public/book-copy/types/');
    expect(milliseconds(limit('proxy_read_timeout')!)).toBeGreaterThan(budget + writeGrace);
    expect(limit('proxy_pass')).toBe('http://shop');
    // Large bodies only where the app takes them.
    expect(bytes(limit('client_max_body_size')!)).toBeLessThan(IMPORT_BODY_LIMIT);
  });
});

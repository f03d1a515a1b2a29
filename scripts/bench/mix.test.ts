// Issue 32's mix draws what the issue asks for, sends what the shop accepts, and judges a step as
// the goal says; the proxy the bench starts is the compose file's. No server, no database: fast.
import { BROWSE_FILTER_KEYS } from '@bookshop/rules/browse';
import { describe, expect, it } from 'vitest';
import {
  drawKind,
  MIX_SHARES,
  type MixWorld,
  mixShoppers,
  random,
  rateVerdict,
  type Sample,
  stepPasses,
  summarize,
  triesAgain,
} from './mix.ts';
import { proxyConfig } from './proxy.ts';

const world = (): MixWorld => ({
  categories: [{ name: 'Science Fiction', authorIds: [7, 8] }],
  copyIds: [1, 2, 3],
  cartCopies: [
    { id: 10, cents: 1299 },
    { id: 11, cents: 500 },
  ],
  clients: ['bs_client_at=a', 'bs_client_at=b'],
  carts: [[], []],
  employee: 'bs_employee_at=e',
  importCsv: () => 'isbn,price,stock,available',
  tally: { ordersPlaced: 0, linesOrdered: 0, importsWritten: 0, importRowsWritten: 0, signIns: 0 },
});

describe("the day's mix", () => {
  it('draws each kind by the issue’s shares', () => {
    const rnd = random(1);
    const counts = new Map<string, number>();
    const draws = 200_000;
    for (let i = 0; i < draws; i++) {
      const kind = drawKind(rnd);
      counts.set(kind, (counts.get(kind) ?? 0) + 1);
    }
    for (const [kind, share] of Object.entries(MIX_SHARES)) expect((counts.get(kind) ?? 0) / draws).toBeCloseTo(share / 100, 2);
  });

  it('browses with the sorts and filters the shop names, and orders what the cart holds at its price', async () => {
    const calls: { method: string; path: string; body?: unknown; cookie?: string }[] = [];
    // A cart as the server keeps it: one line per copy, its units counted.
    const lines = new Map<string, number>();
    const send = async (call: { method: string; path: string; body?: unknown; cookie?: string }) => {
      calls.push(call);
      const added = /^\/api\/client\/cart\/(\d+)$/.exec(call.path);
      if (call.method === 'POST' && added) {
        const key = `${call.cookie} ${added[1]}`;
        if (!lines.has(key)) lines.set(key, lines.size + 1);
        return { status: 200, body: JSON.stringify({ data: lines.get(key) }) };
      }
      if (call.method === 'POST' && call.path === '/api/client/orders/') {
        for (const [key, id] of lines) if ((call.body as { cartItemsIds: number[] }).cartItemsIds.includes(id)) lines.delete(key);
      }
      return { status: 200, body: '{"data":true}' };
    };
    const shoppers = mixShoppers(world(), 5);
    for (let i = 0; i < 3000; i++) await shoppers.act(drawKind(random(i)), send, () => {});

    const browsed = calls.filter((c) => c.path.startsWith('/api/public/book-copy/browse/'));
    expect(browsed.length).toBeGreaterThan(100);
    const allowed = new Set<string>([...BROWSE_FILTER_KEYS, 'sort', 'pageNumber']);
    for (const call of browsed) for (const key of new URL(call.path, 'http://x').searchParams.keys()) expect(allowed).toContain(key);
    expect(new Set(browsed.map((c) => new URL(c.path, 'http://x').searchParams.get('sort'))).size).toBe(6); // 5 sorts and the default

    const checkouts = calls.filter((c) => c.path === '/api/client/orders/');
    expect(checkouts.length).toBeGreaterThan(10);
    // Two adds of the same copy are one line of two units: quantity and price follow the units.
    for (const checkout of checkouts) {
      const body = checkout.body as { totalPrice: number; totalQuantity: number; cartItemsIds: number[] };
      expect(body.cartItemsIds.length).toBeGreaterThan(0);
      expect(body.totalQuantity).toBeGreaterThanOrEqual(body.cartItemsIds.length);
      const cents = Math.round(body.totalPrice * 100);
      // Every unit is one of the two prices.
      expect(
        [...Array(body.totalQuantity + 1).keys()].some((n) => n * 1299 + (body.totalQuantity - n) * 500 === cents),
        JSON.stringify(body),
      ).toBe(true);
    }
    expect(calls.filter((c) => c.path.startsWith('/api/employee/')).every((c) => c.cookie === 'bs_employee_at=e')).toBe(true);
  });

  it('passes a step only with p99 within 100 ms and no 5xx or unanswered call', () => {
    const fast: Sample[] = Array.from({ length: 1000 }, (_, i) => ({ kind: 'book', ms: i % 90, status: 200 }));
    expect(stepPasses(fast).passed).toBe(true);
    expect(stepPasses([...fast.slice(1), { kind: 'cart', ms: 1, status: 503 }]).passed).toBe(false);
    expect(stepPasses([...fast.slice(1), { kind: 'cart', ms: 1, status: 0 }]).passed).toBe(false);
    const slow = fast.map((s, i) => (i < 20 ? { ...s, ms: 150 } : s));
    expect(stepPasses(slow)).toMatchObject({ passed: false, p99: 150 });
    // The import is not a shopper's call: its time is reported, not judged.
    expect(stepPasses([...fast, { kind: 'import', ms: 900, status: 200 }]).passed).toBe(true);
    // The table's "all but the import" row is just that.
    expect(summarize([...fast, ...Array.from({ length: 20 }, () => ({ kind: 'import' as const, ms: 900, status: 200 }))]).all).toEqual(
      summarize(fast).all,
    );
    expect(summarize([...fast, { kind: 'book', ms: 1, status: 409 }]).kinds[0]).toMatchObject({
      kind: 'book',
      status4xx: 1,
      statuses: { 409: 1 },
    });
  });

  it('tries a step that failed on latency alone once more, and never one with a 5xx or a second time', () => {
    expect(triesAgain({ passed: false, failures: 0 }, 1)).toBe(true);
    expect(triesAgain({ passed: false, failures: 0 }, 2)).toBe(false);
    expect(triesAgain({ passed: false, failures: 3 }, 1)).toBe(false);
    expect(triesAgain({ passed: true, failures: 0 }, 1)).toBe(false);
  });

  it('judges ours against bare by their rates, and meets the goal where bare sustains none and ours some', () => {
    expect(rateVerdict(450, 500)).toEqual({ ratio: 0.9, met: true });
    expect(rateVerdict(449, 500).met).toBe(false);
    expect(rateVerdict(19, 0)).toEqual({ ratio: null, met: true });
    expect(rateVerdict(0, 0)).toEqual({ ratio: null, met: false });
  });

  it("puts the compose proxy's server block in front of the given instances", async () => {
    const config = await proxyConfig(['http://127.0.0.1:4001', 'http://127.0.0.1:4002'], 5000, '/tmp/p');
    expect(config).toContain('server 127.0.0.1:4001;\n    server 127.0.0.1:4002;');
    expect(config).toContain('listen 127.0.0.1:5000;');
    expect(config).not.toMatch(/^\s*resolver |server app:3000/m);
    expect(config).toMatch(/proxy_pass http:\/\/shop;/);
    expect(config).toMatch(/^\s*access_log off;$/m);
    expect(await proxyConfig(['http://127.0.0.1:4001'], 5000, '/tmp/p', '/tmp/p/access.log')).toMatch(
      /^\s*access_log \/tmp\/p\/access\.log shop;$/m,
    );
  });
});

// Issue 32's day of traffic: an open-loop mix of shoppers and staff. Arrivals come at a set rate
// whatever the server does (a closed loop slows down with the server and hides its queue), and each
// call's time counts from when it was due, not from when a socket was free, so a queue shows in the
// percentiles. The mix is the issue's: 45 % category pages in any sort and filters, 20 % book pages,
// 15 % searches (typos included), 8 % home lists, 7 % cart changes, 3 % checkouts and 2 % staff
// reads, by signed-in and anonymous shoppers, with a 1,000-row catalog import every minute beside it.
import http from 'node:http';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { BROWSE_SORTS } from '@bookshop/rules/browse';
import { type CpuShares, describeCpu, describeLoops, type LoopsACall, loopsACall, watchCpu, watchScheduler } from './cpu.ts';
import { type LoopDelay, loopDelayMs, percentile } from './stats.ts';
import type { Server } from './throughput.ts';

export const MIX_SHARES = { category: 45, book: 20, search: 15, home: 8, cart: 7, checkout: 3, staff: 2 } as const;
export type MixKind = keyof typeof MIX_SHARES | 'import';
/** The sustainable rate's goal: every call of the mix within it at p99, and no answer 5xx. */
export const MIX_P99_GOAL_MS = 100;
/** Issue 32's goal: ours sustains at least this share of the bare baseline's rate. */
export const MIX_RATIO_GOAL = 0.9;

/**
 * Ours' sustained rate against bare's. When bare sustained none of the rates tried there is no ratio
 * (null), and ours meets the goal if it sustained any: it then holds a load the baseline cannot.
 */
export function rateVerdict(ours: number, bare: number) {
  const ratio = bare > 0 ? ours / bare : null;
  return { ratio, met: ratio === null ? ours > 0 : ratio >= MIX_RATIO_GOAL };
}

/** What the mix draws its calls from, read from the database once (see mixWorld in mix-world.ts). */
export interface MixWorld {
  categories: { name: string; authorIds: number[] }[];
  /** Copies on sale, for book pages. */
  copyIds: number[];
  /** Copies that carts take (stock raised so that checkouts never run out), with their prices in cents. */
  cartCopies: { id: number; cents: number }[];
  /** Signed-in shoppers' cookies (their access tokens). */
  clients: string[];
  /** What each signed-in shopper's cart holds, kept across runs (they share the database). */
  carts: { lineId: number; cents: number; units: number }[][];
  employee: string;
  /** A 1,000-row catalog import, as CSV (isbn, price, stock, available), for copies no cart takes. */
  importCsv: () => string;
  /** What the mix has written so far: what the tables' growth must be explained by. */
  tally: { ordersPlaced: number; linesOrdered: number; importsWritten: number; importRowsWritten: number; signIns: number };
}

/** Searches as shoppers type them: right, misspelt, short, long. */
const SEARCHES = [
  'harry potter',
  'harry poter',
  'tolkien',
  'tolkein',
  'stephen king',
  'steven king',
  'hobbit',
  'the lord of the rings',
  'agatha christie',
  'agatha cristie',
  'sherlok holmes',
  'dune',
  'pride and prejudice',
  'the',
  'a',
  'jane austen',
  'murder',
  'love',
];
const SUGGESTION_PREFIXES = ['ha', 'har', 'harry p', 'king', 'tolk', 'the lo', 'rowl', 'agat', 'sher'];
type Params = Record<string, string | number | boolean>;
const FILTER_SETS: ((authorId: number | undefined) => Params)[] = [
  () => ({}),
  () => ({}),
  () => ({ priceMin: 10, priceMax: 25 }),
  () => ({ inStock: true }),
  () => ({ minRating: 4 }),
  () => ({ yearFrom: 1990, yearTo: 2015 }),
  (authorId): Params => (authorId ? { authorId } : {}),
  () => ({ inStock: true, minRating: 3.5, priceMax: 30 }),
];

/** A small seeded generator (mulberry32), so two runs (ours, bare) draw the same calls. */
export function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(rnd: () => number, items: readonly T[]) => items[Math.floor(rnd() * items.length)]!;
const query = (params: Params) => {
  const text = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
  return text ? `?${text}` : '';
};

/** Which kind of call an arrival is, by the issue's shares. */
export function drawKind(rnd: () => number): keyof typeof MIX_SHARES {
  const total = Object.values(MIX_SHARES).reduce((a, b) => a + b, 0);
  let at = rnd() * total;
  for (const [kind, share] of Object.entries(MIX_SHARES)) {
    at -= share;
    if (at < 0) return kind as keyof typeof MIX_SHARES;
  }
  return 'category';
}

interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  body?: unknown;
  cookie?: string;
  contentType?: string;
}
interface Answer {
  status: number;
  body: string;
}
export interface Sample {
  kind: MixKind;
  ms: number;
  status: number;
  /** When the call was due (performance.now()): where the slow calls fall in time (import-bursts.ts). */
  dueAt?: number;
}

/** A keep-alive HTTP client with many sockets: an open loop must not wait for a free one. */
export function httpClient(base: string, sockets = 256) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  const url = new URL(base);
  return {
    send(call: Call): Promise<Answer> {
      const body = call.body === undefined ? undefined : typeof call.body === 'string' ? call.body : Buffer.from(JSON.stringify(call.body));
      return new Promise((resolve) => {
        const request = http.request(
          {
            agent,
            host: url.hostname,
            port: url.port,
            method: call.method,
            path: call.path,
            headers: {
              ...(call.cookie ? { cookie: call.cookie } : {}),
              ...(body !== undefined ? { 'content-type': call.contentType ?? 'application/json' } : {}),
              // No Accept-Encoding, as in the throughput table: bare does not compress, and brotli was a
              // sixth of ours' CPU under the mix when asked for.
            },
            timeout: 30_000,
          },
          (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
            response.on('error', () => resolve({ status: 0, body: '' }));
          },
        );
        // A refused connection or a timeout is an answer of status 0: counted as an error, never thrown.
        request.on('error', () => resolve({ status: 0, body: '' }));
        request.on('timeout', () => request.destroy());
        request.end(body);
      });
    },
    close: () => agent.destroy(),
  };
}

/**
 * The shoppers and staff of the mix. Each signed-in shopper has a cart the mix fills and empties
 * (a cart change adds a copy, or removes the oldest line once it holds three; a checkout orders what
 * the cart holds), and acts once at a time, as one person does.
 */
export function mixShoppers(world: MixWorld, seed: number) {
  const rnd = random(seed);
  const { carts } = world;
  const busy = new Set<number>();
  let sequence = 0;

  const catalogCall = (kind: 'category' | 'book' | 'search' | 'home', cookie: string | undefined): Call => {
    if (kind === 'category') {
      const category = pick(rnd, world.categories);
      const filters = pick(rnd, FILTER_SETS)(category.authorIds.length ? pick(rnd, category.authorIds) : undefined);
      const sort = pick(rnd, BROWSE_SORTS);
      const page = rnd() < 0.75 ? 1 : 2 + Math.floor(rnd() * 4);
      return {
        method: 'GET',
        path: `/api/public/book-copy/browse/${encodeURIComponent(category.name)}${query({ ...(sort === 'relevance' ? {} : { sort }), ...filters, ...(page > 1 ? { pageNumber: page } : {}) })}`,
        cookie,
      };
    }
    if (kind === 'book') return { method: 'GET', path: `/api/public/book-copy/by-id/${pick(rnd, world.copyIds)}`, cookie };
    if (kind === 'search') {
      const draw = rnd();
      // A third are type-ahead suggestions, a sixth the spec's plain search, the rest the results page.
      if (draw < 1 / 3)
        return { method: 'GET', path: `/api/public/book-copy/suggestions/${query({ text: pick(rnd, SUGGESTION_PREFIXES) })}`, cookie };
      if (draw < 1 / 2) return { method: 'GET', path: `/api/public/book-copy/by-name/${encodeURIComponent(pick(rnd, SEARCHES))}`, cookie };
      const sort = rnd() < 0.6 ? 'relevance' : pick(rnd, BROWSE_SORTS);
      const filters = rnd() < 0.7 ? {} : pick(rnd, FILTER_SETS)(undefined);
      return {
        method: 'GET',
        path: `/api/public/book-copy/search/${query({ text: pick(rnd, SEARCHES), ...(sort === 'relevance' ? {} : { sort }), ...filters })}`,
        cookie,
      };
    }
    const list = pick(rnd, ['new-releases', 'best-sellers', 'top-rated', 'recommended']);
    return { method: 'GET', path: `/api/public/book-copy/${list}/`, cookie };
  };

  /** A signed-in shopper not acting now (most are idle; the mix has many). */
  const freeShopper = () => {
    for (let tries = 0; tries < 8; tries++) {
      const shopper = Math.floor(rnd() * world.clients.length);
      if (!busy.has(shopper)) return shopper;
    }
    return null;
  };

  return {
    /** One arrival: the calls it makes in turn (a checkout of an empty cart first puts a copy in it). */
    async act(
      kind: keyof typeof MIX_SHARES,
      send: (call: Call) => Promise<Answer>,
      record: (kind: MixKind, ms: number, status: number) => void,
    ) {
      const timed = async (kind: MixKind, call: Call, due = performance.now()) => {
        const answer = await send(call);
        record(kind, performance.now() - due, answer.status);
        return answer;
      };
      const due = performance.now();
      if (kind === 'category' || kind === 'book' || kind === 'search' || kind === 'home') {
        // Half the shoppers browse signed in.
        const cookie = rnd() < 0.5 ? pick(rnd, world.clients) : undefined;
        await timed(kind, catalogCall(kind, cookie), due);
        return;
      }
      if (kind === 'staff') {
        const path = pick(rnd, ['/api/employee/order/1,15', '/api/employee/statistics/', '/api/employee/low-stock/']);
        await timed('staff', { method: 'GET', path, cookie: world.employee }, due);
        return;
      }
      const shopper = freeShopper();
      if (shopper === null) return;
      busy.add(shopper);
      try {
        const cookie = world.clients[shopper]!;
        const cart = carts[shopper]!;
        const add = async (first = due) => {
          const copy = pick(rnd, world.cartCopies);
          const answer = await timed('cart', { method: 'POST', path: `/api/client/cart/${copy.id}`, cookie }, first);
          if (answer.status === 200) {
            const lineId = (JSON.parse(answer.body) as { data: number }).data;
            const line = cart.find((l) => l.lineId === lineId);
            if (line) {
              line.cents += copy.cents;
              line.units++;
            } else cart.push({ lineId, cents: copy.cents, units: 1 });
          }
        };
        if (kind === 'cart') {
          if (cart.length >= 3) {
            const [oldest] = cart.splice(0, 1);
            await timed('cart', { method: 'DELETE', path: `/api/client/cart/${oldest!.lineId}`, cookie }, due);
          } else await add();
          return;
        }
        if (!cart.length) await add();
        if (!cart.length) return;
        const lines = cart.splice(0, cart.length);
        const cents = lines.reduce((sum, l) => sum + l.cents, 0);
        const ordered = await timed('checkout', {
          method: 'POST',
          path: '/api/client/orders/',
          cookie,
          body: {
            shipmentAddress: `${++sequence} Bench Street, Constantine`,
            totalPrice: cents / 100,
            totalQuantity: lines.reduce((sum, l) => sum + l.units, 0),
            cartItemsIds: lines.map((l) => l.lineId),
          },
        });
        // Not ordered: the lines are still in the cart.
        if (ordered.status !== 200) cart.push(...lines);
        else {
          world.tally.ordersPlaced++;
          world.tally.linesOrdered += lines.length;
        }
      } finally {
        busy.delete(shopper);
      }
    },
  };
}

export interface KindStats {
  kind: MixKind;
  calls: number;
  p50: number;
  p95: number;
  p99: number;
  status4xx: number;
  status5xx: number;
  errors: number;
  /** Every status other than 200, with its count. */
  statuses: Record<string, number>;
}

/** Each kind's figures, and `all`: the shoppers' and staff's calls together, the import aside (what a step is judged by). */
export function summarize(samples: Sample[]) {
  const kinds = [...new Set(samples.map((s) => s.kind))];
  const stats = (kind: MixKind | 'all', of: Sample[]): KindStats => {
    const times = of.map((s) => s.ms);
    return {
      kind: kind as MixKind,
      calls: of.length,
      p50: of.length ? percentile(times, 0.5) : 0,
      p95: of.length ? percentile(times, 0.95) : 0,
      p99: of.length ? percentile(times, 0.99) : 0,
      status4xx: of.filter((s) => s.status >= 400 && s.status < 500).length,
      status5xx: of.filter((s) => s.status >= 500).length,
      errors: of.filter((s) => s.status === 0).length,
      statuses: of.reduce<Record<string, number>>((counts, s) => {
        if (s.status !== 200) counts[s.status] = (counts[s.status] ?? 0) + 1;
        return counts;
      }, {}),
    };
  };
  const order = [...Object.keys(MIX_SHARES), 'import'];
  return {
    all: stats(
      'all',
      samples.filter((s) => s.kind !== 'import'),
    ),
    kinds: kinds
      .sort((a, b) => order.indexOf(a) - order.indexOf(b))
      .map((k) =>
        stats(
          k,
          samples.filter((s) => s.kind === k),
        ),
      ),
  };
}

type Send = (call: Call) => Promise<Answer>;

/**
 * The staff's import of 1,000 rows: the dry run, then the run as a background job (both timed as
 * `import`), waited for until done so that the next one never overlaps it.
 */
export async function runImport(send: Send, world: MixWorld, record: (kind: MixKind, ms: number, status: number, dueAt?: number) => void) {
  // Each of the import's samples is due when the import began: they are one import (import-bursts.ts).
  const began = performance.now();
  const timed = async (call: Call) => {
    const started = performance.now();
    const answer = await send(call);
    record('import', performance.now() - started, answer.status, began);
    return answer;
  };
  const cookie = world.employee;
  const checked = await timed({
    method: 'POST',
    path: '/api/employee/catalog/import',
    cookie,
    body: world.importCsv(),
    contentType: 'text/csv',
  });
  if (checked.status !== 200) return;
  const { id, changed } = (JSON.parse(checked.body) as { data: { id: number; changed: number } }).data;
  const ran = await timed({ method: 'POST', path: `/api/employee/catalog/import/${id}/run`, cookie, body: { skipInvalid: true } });
  if (ran.status !== 200) return;
  for (let i = 0; i < 600; i++) {
    const job = await send({ method: 'GET', path: `/api/employee/catalog/import/${id}`, cookie });
    const status = job.status === 200 ? (JSON.parse(job.body) as { data: { status: string } }).data.status : 'failed';
    if (status !== 'running' && status !== 'checked') {
      if (status !== 'done')
        record('import', 0, 500, began); // a failed job is a server error of the import
      else {
        world.tally.importsWritten++;
        world.tally.importRowsWritten += changed;
      }
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Arrivals at `rate` a second for `seconds` (a Poisson process: exponential gaps), each sent when due
 * whatever is still in flight; with `importEveryMs`, an import runs on that period beside them.
 * Answers every call's sample once all have answered.
 */
export async function openLoop(
  base: string,
  world: MixWorld,
  { rate, seconds, seed, importEveryMs }: { rate: number; seconds: number; seed: number; importEveryMs?: number },
) {
  const client = httpClient(base);
  const shoppers = mixShoppers(world, seed);
  const rnd = random(seed ^ 0x5bd1e995);
  const samples: Sample[] = [];
  const record = (kind: MixKind, ms: number, status: number, dueAt = performance.now() - ms) => samples.push({ kind, ms, status, dueAt });
  const inFlight = new Set<Promise<void>>();
  const track = (work: Promise<void>) => {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
  };
  const started = performance.now();
  const end = started + seconds * 1000;
  // The first import a third into the run, so that a short run has one with load before and after it.
  let nextImport = importEveryMs ? started + Math.min(importEveryMs, seconds * 1000) / 3 : Number.POSITIVE_INFINITY;
  let importing: Promise<void> | null = null;
  let next = started;
  while (next < end) {
    const now = performance.now();
    while (next <= now && next < end) {
      track(shoppers.act(drawKind(rnd), client.send, record));
      next += (-Math.log(1 - rnd()) * 1000) / rate;
    }
    if (now >= nextImport && !importing) {
      importing = runImport(client.send, world, record).finally(() => {
        importing = null;
      });
      track(importing);
      nextImport += importEveryMs!;
    }
    await new Promise((r) => setTimeout(r, Math.max(0, Math.min(5, next - performance.now()))));
  }
  await Promise.all(inFlight);
  client.close();
  return samples;
}

/** A step passes when the shoppers' and staff's calls (the import aside) have p99 within the goal and none was a 5xx or unanswered. */
export function stepPasses(samples: Sample[]) {
  const { all } = summarize(samples);
  return {
    p99: all.p99,
    failures: samples.filter((s) => s.status >= 500 || s.status === 0).length,
    passed: all.p99 <= MIX_P99_GOAL_MS && !samples.some((s) => s.status >= 500 || s.status === 0),
  };
}

/**
 * Whether a failed step is run once more before it counts: only a first try, and only one that failed
 * on latency alone. Both servers stall now and then for a moment of a 15 s step (on 25 and 26 November,
 * one step of ours and one of bare's had every kind's p99 at 300-2,000 ms between two passing rates:
 * a checkpoint, the other server's background work, another tenant of the host), and one such moment
 * decided a whole search. Both are judged alike; a 5xx or an unanswered call is never tried again.
 */
export const triesAgain = (verdict: { passed: boolean; failures: number }, attempt: number) =>
  !verdict.passed && verdict.failures === 0 && attempt === 1;

/**
 * "loops' longest tick: generator 22 ms, servers 45/50 ms". monitorEventLoopDelay times its own 10 ms
 * ticks, so an idle loop shows 10-13 ms and a loop held for 40 ms about 50.
 */
export const describeLoopDelay = ({ generator, servers }: NonNullable<MixStep['loopDelay']>) =>
  `loops' longest tick: generator ${generator.max.toFixed(0)} ms` +
  (servers.length ? `, server${servers.length > 1 ? 's' : ''} ${servers.map((s) => s.max.toFixed(0)).join('/')} ms` : '');

export interface MixStep {
  rate: number;
  /** 2 for a failed step's second try (triesAgain). */
  attempt: number;
  p99: number;
  failures: number;
  passed: boolean;
  kinds: { kind: MixKind; calls: number; p99: number }[];
  /** Who kept the cores busy during the step (cpu.ts); none where /proc is not there. */
  cpu?: CpuShares;
  /** The event loops' delays during the step: the load generator's own, and each server's. */
  loopDelay?: { generator: LoopDelay; servers: LoopDelay[] };
  /** The servers' event loops together, a recorded call: the scheduler's counts (cpu.ts); none without /proc. */
  loops?: LoopsACall;
}

/**
 * The highest rate whose step passes: rates grow by `factor` from `from` until a step fails, then
 * the gap between the last pass and the first failure is halved `refine` times; a step that failed on
 * latency alone is tried once more (triesAgain). Answers every step, and the samples of the best
 * passing one.
 */
export async function findSustainableRate(
  label: string,
  base: string,
  world: MixWorld,
  {
    from,
    factor,
    seconds,
    refine,
    seed,
    importEveryMs,
    servers = [],
    warmUpSeconds = Math.min(seconds, 10),
  }: {
    from: number;
    factor: number;
    seconds: number;
    refine: number;
    seed: number;
    importEveryMs?: number;
    /** The servers behind `base`, whose event loops each step watches. */
    servers?: Pick<Server, 'loopDelay' | 'pid'>[];
    /** The warm-up's length, at `from` and not counted: longer for a server held to part of a core. */
    warmUpSeconds?: number;
  },
) {
  const steps: MixStep[] = [];
  let best: { rate: number; samples: Sample[] } | null = null;
  const run = async (rate: number, attempt = 1): Promise<boolean> => {
    // A stall of the generator's own loop delays every call it sends, whoever answers: each step
    // says how long the generator's and the servers' loops waited, to tell them apart.
    await Promise.all(servers.map((server) => server.loopDelay()));
    const generatorDelay = monitorEventLoopDelay({ resolution: 10 });
    generatorDelay.enable();
    const cpuSince = watchCpu();
    const loopsSince = servers.length ? watchScheduler(servers.map((server) => server.pid)) : null;
    // Each step has its import (one a minute in a longer step): a step without one would measure another mix.
    const samples = await openLoop(base, world, {
      rate,
      seconds,
      seed,
      importEveryMs: importEveryMs && Math.min(importEveryMs, seconds * 1000),
    });
    const cpu = cpuSince?.();
    const loops = loopsSince && samples.length ? loopsACall(loopsSince(), samples.length) : undefined;
    generatorDelay.disable();
    const loopDelay = { generator: loopDelayMs(generatorDelay), servers: await Promise.all(servers.map((server) => server.loopDelay())) };
    const verdict = stepPasses(samples);
    const { kinds } = summarize(samples);
    steps.push({
      rate,
      attempt,
      ...verdict,
      kinds: kinds.map(({ kind, calls, p99 }) => ({ kind, calls, p99 })),
      ...(cpu && { cpu }),
      loopDelay,
      ...(loops && { loops }),
    });
    console.log(
      `  ${label.padEnd(28)} ${rate.toFixed(0).padStart(5)}/s  p99 ${verdict.p99.toFixed(1).padStart(7)} ms  failures ${String(verdict.failures).padStart(4)}  ${verdict.passed ? 'pass' : 'FAIL'}${attempt > 1 ? ' (again)' : ''}  ` +
        `(p99 ${kinds.map((k) => `${k.kind} ${k.p99.toFixed(0)}`).join(', ')})${cpu ? `  CPU ${describeCpu(cpu)}` : ''}  ${describeLoopDelay(loopDelay)}` +
        (loops ? `; ${describeLoops(loops, servers.length)}` : ''),
    );
    if (verdict.passed && (!best || rate > best.rate)) best = { rate, samples };
    // Let the queue of a failed step drain and the database's background work settle.
    await new Promise((r) => setTimeout(r, verdict.passed ? 500 : 3000));
    return triesAgain(verdict, attempt) ? run(rate, attempt + 1) : verdict.passed;
  };
  // A warm-up at the first rate, not counted: the JIT, the pools, the database's caches, and the
  // import's own path when the steps have one (else the first step's import runs cold).
  await openLoop(base, world, {
    rate: from,
    seconds: warmUpSeconds,
    seed: seed + 1,
    importEveryMs: importEveryMs && Math.min(importEveryMs, warmUpSeconds * 1000),
  });
  let low = 0;
  let high = 0;
  for (let rate = from; ; rate = Math.round(rate * factor)) {
    if (await run(rate)) low = rate;
    else {
      high = rate;
      break;
    }
    if (rate > 100_000) break;
  }
  // Not even the first rate: down until one passes (or the rate is too low to mean anything).
  for (let rate = Math.round(from / factor); !low && rate >= 2; rate = Math.round(rate / factor)) {
    if (await run(rate)) low = rate;
    else high = rate;
  }
  for (let i = 0; i < refine && high > 0 && low > 0; i++) {
    const middle = Math.round((low + high) / 2);
    if (await run(middle)) low = middle;
    else high = middle;
  }
  const found = best as { rate: number; samples: Sample[] } | null;
  return { rate: found?.rate ?? 0, steps, stats: found ? summarize(found.samples) : null };
}

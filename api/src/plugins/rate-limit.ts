// Rate limits on calls a stranger could repeat (contact messages, sign-up, password resets,
// unsubscribes, passkey sign-ins, reviews, wishlist changes, a client's order cancels), counted in PostgreSQL so every
// API instance shares them. Routes opt in with `config: { rateLimit: { max, timeWindow } }`, by
// address unless the route keys them otherwise (a signed-in client's cancels count per client); a
// client over the limit gets 429 with Retry-After, and the refusal is a security event (one row per
// address and window however often it repeats: modules/security/security-events.ts).
import rateLimit, { type FastifyRateLimitStore } from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import { refuse } from '../lib/refusals.ts';
import { countHit } from '../modules/security/counters.ts';
import type { Db } from './prisma.ts';

/** @fastify/rate-limit's store contract over the shared throttle_counters table. */
function postgresStore(db: Db) {
  return class PostgresRateLimitStore implements FastifyRateLimitStore {
    constructor(private readonly prefix = 'rate') {}

    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number) {
      countHit(db, `${this.prefix}:${key}`, timeWindow).then(
        ({ hits, ttlMs }) => callback(null, { current: hits, ttl: ttlMs }),
        (error: Error) => callback(error),
      );
    }

    /**
     * Each limited route's own counters. The library's types say it passes the route, but it passes
     * the route's merged limit, which holds the route under `routeInfo` (read at its top level, every
     * route shared one count an address). Only a limit made by `app.rateLimit()` comes without a
     * route, and none is: it would share the plain prefix.
     */
    child(mergedLimit: unknown) {
      const { routeInfo } = mergedLimit as { routeInfo?: { method?: string | string[]; url?: string } };
      return new PostgresRateLimitStore(routeInfo?.url ? `rate:${String(routeInfo.method)}:${routeInfo.url}` : 'rate');
    }
  };
}

export default fp(
  async (app) => {
    await app.register(rateLimit, {
      global: false,
      store: postgresStore(app.prisma) as never,
      keyGenerator: (request) => app.clientAddress(request),
      errorResponseBuilder: (_request, context) => refuse.rateLimited('requests', context.ttl),
      onExceeded: (request) => {
        void app.securityEvents.record({
          type: 'rate_limited',
          address: app.clientAddress(request),
          details: { route: request.routeOptions.url },
        });
      },
    });
  },
  { name: 'rate-limit', dependencies: ['prisma', 'security-events'] },
);

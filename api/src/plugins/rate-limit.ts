// Rate limits on anonymous writes (contact messages, sign-up), counted in PostgreSQL so every API
// instance shares them. Routes opt in with `config: { rateLimit: { max, timeWindow } }`; a client
// over the limit gets 429 with Retry-After, and the refusal is a security event (one row per
// address and window however often it repeats: modules/security/security-events.ts).
import rateLimit, { type FastifyRateLimitStore } from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import { AppError } from '../lib/errors.ts';
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

    child(routeOptions: { method?: string | string[]; url?: string }) {
      return new PostgresRateLimitStore(`rate:${String(routeOptions.method)}:${routeOptions.url}`);
    }
  };
}

export default fp(
  async (app) => {
    await app.register(rateLimit, {
      global: false,
      store: postgresStore(app.prisma) as never,
      keyGenerator: (request) => app.clientAddress(request),
      errorResponseBuilder: (_request, context) =>
        new AppError(429, 'RATE_LIMITED', `Too many requests. Please try again in ${Math.ceil(context.ttl / 1000)} seconds.`, {
          'retry-after': String(Math.ceil(context.ttl / 1000)),
        }),
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

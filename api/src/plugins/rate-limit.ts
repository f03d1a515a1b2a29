// Rate limits on anonymous writes (contact messages, sign-up), counted in PostgreSQL so every API
// instance shares them. Routes opt in with `config: { rateLimit: { max, timeWindow } }`; a client
// over the limit gets 429 with Retry-After, and the refusal is a security event.
import rateLimit, { type FastifyRateLimitStore } from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import { AppError } from '../lib/errors.ts';
import type { Db } from './prisma.ts';

/** @fastify/rate-limit's store contract over the shared throttle_counters table. */
function postgresStore(db: Db) {
  return class PostgresRateLimitStore implements FastifyRateLimitStore {
    constructor(private readonly prefix = 'rate') {}

    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number) {
      db.$queryRaw<{ hits: number; ttl: number }[]>`
        INSERT INTO throttle_counters AS t (key, hits, window_ends_at, last_hit_at)
        VALUES (${`${this.prefix}:${key}`}, 1, now() + ${timeWindow} * interval '1 millisecond', now())
        ON CONFLICT (key) DO UPDATE SET
          hits = CASE WHEN t.window_ends_at <= now() THEN 1 ELSE t.hits + 1 END,
          window_ends_at = CASE WHEN t.window_ends_at <= now() THEN excluded.window_ends_at ELSE t.window_ends_at END,
          last_hit_at = now()
        RETURNING hits, greatest(extract(epoch FROM window_ends_at - now()) * 1000, 0)::float8 AS ttl`.then(
        ([row]) => callback(null, { current: row?.hits ?? 1, ttl: Math.ceil(row?.ttl ?? timeWindow) }),
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
  { name: 'rate-limit', dependencies: ['prisma', 'auth'] },
);

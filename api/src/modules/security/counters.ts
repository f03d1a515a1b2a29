// Hit counters over the shared throttle_counters table, so every API instance counts together: a
// key's hits in its current window, the window starting again once it has ended. The request rate
// limits and the per-person limits (a client's reset e-mails) share this one statement; the login
// throttle keeps its own, which reserves before it counts. Expired rows are purged with the login
// throttle's (modules/sessions/login-throttle.ts).
import type { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../plugins/prisma.ts';

/**
 * Counts one hit on `key` (a text, or SQL that makes one) and returns the hits in its window and the
 * milliseconds left of it; on its own, or in the caller's transaction.
 */
export async function countHit(
  db: Db | Prisma.TransactionClient,
  key: string | Prisma.Sql,
  windowMs: number,
): Promise<{ hits: number; ttlMs: number }> {
  const [row] = await db.$queryRaw<{ hits: number; ttl: number }[]>`
    INSERT INTO throttle_counters AS t (key, hits, window_ends_at, last_hit_at)
    VALUES (${key}, 1, now() + ${windowMs} * interval '1 millisecond', now())
    ON CONFLICT (key) DO UPDATE SET
      hits = CASE WHEN t.window_ends_at <= now() THEN 1 ELSE t.hits + 1 END,
      window_ends_at = CASE WHEN t.window_ends_at <= now() THEN excluded.window_ends_at ELSE t.window_ends_at END,
      last_hit_at = now()
    RETURNING hits, greatest(extract(epoch FROM window_ends_at - now()) * 1000, 0)::float8 AS ttl`;
  return { hits: row?.hits ?? 1, ttlMs: Math.ceil(row?.ttl ?? windowMs) };
}

/**
 * Spends `key`'s mark when a live one is there (true), else sets one for `windowMs` (false): for a
 * thing refused once and taken as meant when asked again soon after. In the caller's transaction.
 */
export async function spendOrMark(tx: Prisma.TransactionClient, key: Prisma.Sql, windowMs: number): Promise<boolean> {
  const spent = await tx.$queryRaw<unknown[]>`DELETE FROM throttle_counters WHERE key = ${key} AND window_ends_at > now() RETURNING 1`;
  if (spent.length) return true;
  // No live mark is left under the key, so its count starts again: one hit, a window from now.
  await countHit(tx, key, windowMs);
  return false;
}

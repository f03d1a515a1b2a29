// Failed sign-ins are counted per account and per address in a sliding window. In memory, per
// process: enough for one instance; see docs/decisions/0004-login-throttling.md.
import { AppError } from '../../lib/errors.ts';

export interface ThrottleLimits {
  windowMs: number;
  perAccount: number;
  perAddress: number;
}

export const DEFAULT_THROTTLE: ThrottleLimits = { windowMs: 15 * 60 * 1000, perAccount: 5, perAddress: 30 };

export function loginThrottle(limits: ThrottleLimits = DEFAULT_THROTTLE, now: () => number = Date.now) {
  const failures = new Map<string, number[]>();

  const recent = (key: string) => {
    const cutoff = now() - limits.windowMs;
    const list = (failures.get(key) ?? []).filter((t) => t > cutoff);
    if (list.length) failures.set(key, list);
    else failures.delete(key);
    return list;
  };

  const keys = (account: string, address: string) =>
    [
      [`account:${account}`, limits.perAccount],
      [`address:${address}`, limits.perAddress],
    ] as const;

  return {
    /** Throws 429 with Retry-After when either the account or the address has failed too often. */
    check(account: string, address: string) {
      for (const [key, limit] of keys(account, address)) {
        const list = recent(key);
        if (list.length >= limit) {
          const retryAfter = Math.max(1, Math.ceil(((list[0] ?? now()) + limits.windowMs - now()) / 1000));
          throw new AppError(429, 'TOO_MANY_ATTEMPTS', 'Too many failed sign-in attempts. Please try again later.', {
            'retry-after': String(retryAfter),
          });
        }
      }
    },
    fail(account: string, address: string) {
      for (const [key] of keys(account, address)) failures.set(key, [...recent(key), now()]);
    },
    succeed(account: string) {
      failures.delete(`account:${account}`);
    },
  };
}

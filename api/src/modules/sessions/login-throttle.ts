// Sign-in throttling, kept in PostgreSQL so every API instance shares it (throttle_counters).
//
// - Each attempt is reserved BEFORE the password is checked, in one atomic statement per key, so a
//   parallel burst cannot get more guesses than the limit: the reservation counts as a failure until
//   the password proves right, and is then given back.
// - An (account, address) pair is locked hard after `perPair` failures in the window.
// - An account is never locked for everyone (anyone could lock the Admin out): after `perAccount`
//   failures it slows down, with delays doubling per further failure, for addresses that have
//   failed on it; an address that has not failed on it still signs in with the right password.
// - That slowdown alone let each fresh address (a /64 each) guess once more per window: a password
//   also counts its account's failures over a day, and past `passwordPerDay` of them only a browser
//   that signed in to the account before (its device cookie, password-check.ts) may try it until the
//   day's count ends; the owner, from a browser they used, still signs in, and a password reset
//   forgets the count (OWASP's device cookies).
// - An address is locked after `perAddress` failures, whatever accounts it tries.
// - A staff second factor's codes are the exception: after `perAccount` failures the account's
//   factor is locked for every address until the window ends. Only someone who already has the
//   password (or a session) reaches a code, so such a lock shuts out no one the password did not
//   already expose; without it, each fresh address (a /64 each: an IPv6 /48 holds 65,536) would
//   still get its guess at six digits. The account is counted in the reservation itself, so a burst
//   of guesses at once cannot pass the limit. A window's lock alone still let 40 codes an hour
//   through, a good chance at six digits within a year; so a factor also locks for a day after
//   `secondFactorPerDay` failures without a right answer between them (NIST SP 800-63B 5.2.2 asks
//   for a bound on consecutive failures). A right answer, or an Admin's reset of the factor, forgets
//   them. Whoever locks it this way already has the password: the lock is the log's cue to change it.
// - Passwords and codes keep their own counters, under a prefix (`password:`, `second-factor:`,
//   `app-setup:`)
//   that no typed account name can make: a stranger signing in as "second-factor:<e-mail>" counts
//   as a password for that name, never against the employee's factor.
// Counters expire with their window; old rows are purged periodically.
// - Every statement that touches several counters locks them in key order (address < a secret's
//   account < its day < its pair), so concurrent attempts on one account queue instead of deadlocking; a
//   statement that still loses a race (a deadlock or serialization failure) runs once more, as each
//   is idempotent in effect for the attempt it serves.
import { retryLostRace } from '../../lib/database-errors.ts';
import { AppError } from '../../lib/errors.ts';
import { refuse } from '../../lib/refusals.ts';
import { escapeLike } from '../../lib/text.ts';
import type { Db } from '../../plugins/prisma.ts';
import { countHit } from '../security/counters.ts';

export interface ThrottleLimits {
  windowMs: number;
  perPair: number;
  perAccount: number;
  perAddress: number;
  /** Failed second-factor answers an account may have in a day; SECOND_FACTOR_PER_DAY unless set. */
  secondFactorPerDay?: number;
  /** Failed passwords an account may have in a day before only its known browsers may try; PASSWORD_FAILURES_PER_DAY unless set. */
  passwordPerDay?: number;
}

/**
 * What an attempt checks: each kind has its own account and pair counters; the address's is shared.
 * `app-setup` is the first code of an authenticator app being set up: counted as a second factor's,
 * apart from it, so wrong setup codes (a phone's clock, or a stolen session's guesses) lock the setup,
 * never the factors the employee signs in with.
 */
export type CheckedSecret = 'password' | 'second-factor' | 'app-setup';

export const DEFAULT_THROTTLE: ThrottleLimits = { windowMs: 15 * 60 * 1000, perPair: 5, perAccount: 10, perAddress: 50 };

/** At most this many wrong second-factor answers a day: a code is right one step either side (three of a million), so about 3 % odds in a year. */
export const SECOND_FACTOR_PER_DAY = 30;
/**
 * Wrong passwords an account takes in a day from browsers it never signed in from (NIST SP 800-63B
 * asks at most 100 failed attempts in a row; a right password, which forgets the count, ends the row).
 */
export const PASSWORD_FAILURES_PER_DAY = 100;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Sign-ins with the right password that start a session an account may make in an hour. Each is a
 * bcrypt check, of which the shop runs a few at a time (passwords.ts), and a right password gives its
 * reservation back: an account's own loop of right sign-ins (a client's sign-up is enough) held every
 * check of the shop, everyone else's sign-ins waiting or refused as busy. A person signs in a few
 * times a day. A password that leads to a second factor starts no session and is not counted, so the
 * password alone cannot use up its owner's hour; a password reset forgets the count.
 */
export const SIGN_INS_PER_ACCOUNT_HOUR = 60;
const HOUR_MS = 60 * 60 * 1000;
const signedInKey = (account: string) => `signed-in:account:${account}`;

/** The longest delay an account's slowdown imposes between two attempts. */
const MAX_ACCOUNT_DELAY_SECONDS = 15 * 60;

const tooMany = (retryAfterSeconds: number, secret: CheckedSecret = 'password') =>
  new AppError(
    429,
    'TOO_MANY_ATTEMPTS',
    // An app's setup is no sign-in: its screen says what was tried too often.
    secret === 'app-setup' ? 'Too many wrong codes. Please try again later.' : 'Too many failed sign-in attempts. Please try again later.',
    { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
  );

export interface Attempt {
  /** The password was right: give the reservation back and forget this account's failures. */
  succeeded(): Promise<void>;
  /** The password was wrong: the reservation stays a failure; the account's count grows. Returns true when this locked the pair. */
  failed(): Promise<{ locked: boolean }>;
  /** Neither (the check itself failed, e.g. busy): give the reservation back. */
  release(): Promise<void>;
}

export function loginThrottle(db: Db, limits: ThrottleLimits = DEFAULT_THROTTLE) {
  const windowMs = limits.windowMs;
  const perDay = limits.secondFactorPerDay ?? SECOND_FACTOR_PER_DAY;
  const passwordPerDay = limits.passwordPerDay ?? PASSWORD_FAILURES_PER_DAY;

  /**
   * Gives one reservation back on each key. A counter given back to nothing is deleted, not kept at
   * 0 until the purge: a refused attempt inserts its pair's counter before it learns the address is
   * locked, and a locked address naming a new account each time would otherwise add a row a request.
   * A counter at 0 counts as none, so deleting it changes no later verdict.
   */
  async function refund(keys: string[]) {
    if (!keys.length) return;
    await retryLostRace(
      () => db.$executeRaw`
        WITH locked AS (
          SELECT key, hits FROM throttle_counters WHERE key = ANY(${keys}::text[]) AND window_ends_at > now() ORDER BY key FOR UPDATE
        ), emptied AS (
          DELETE FROM throttle_counters t USING locked WHERE t.key = locked.key AND locked.hits <= 1
        )
        UPDATE throttle_counters t SET hits = locked.hits - 1 FROM locked WHERE t.key = locked.key AND locked.hits > 1`,
    );
  }

  return {
    limits,

    /**
     * Reserves an attempt at `secret` for this account from this address, or throws 429 with
     * Retry-After. A second factor's account locks for every address after `perAccount` failures; a
     * password's, past `passwordPerDay` failures in a day, for every browser but those that signed
     * in to it before (`knownDevice`).
     */
    async reserve(account: string, address: string, secret: CheckedSecret = 'password', { knownDevice = false } = {}): Promise<Attempt> {
      const addressKey = `address:${address}`;
      const accountKey = `${secret}:account:${account}`;
      const pairKey = `${secret}:pair:${account}|${address}`;
      const lockAccount = secret !== 'password';
      // A day's count of the account's failures, beside the window's. A password's is reserved with the
      // attempt (so a burst at once cannot pass it) from a browser that never signed in to the account;
      // a known browser's failures are counted after its check, and never refuse it.
      const dayKey = `${secret}:day:${account}`;
      const dayReserved = lockAccount || !knownDevice;
      const dayLimit = lockAccount ? perDay : passwordPerDay;
      const keys = (
        lockAccount ? [addressKey, accountKey, dayKey, pairKey] : [addressKey, pairKey, ...(dayReserved ? [dayKey] : [])]
      ).sort();
      // One statement, keys in a fixed order: concurrent reservations serialize per row without deadlock.
      const reserved = await retryLostRace(
        () => db.$queryRaw<{ key: string; hits: number }[]>`
        INSERT INTO throttle_counters AS t (key, hits, window_ends_at, last_hit_at)
        SELECT k, 1, now() + (CASE WHEN k = ${dayKey} THEN ${DAY_MS}::int ELSE ${windowMs}::int END) * interval '1 millisecond', now()
        FROM unnest(${keys}::text[]) AS k
        ON CONFLICT (key) DO UPDATE SET
          hits = CASE WHEN t.window_ends_at <= now() THEN 1 ELSE t.hits + 1 END,
          window_ends_at = CASE WHEN t.window_ends_at <= now() THEN excluded.window_ends_at ELSE t.window_ends_at END,
          last_hit_at = now()
        WHERE t.window_ends_at <= now()
           OR t.hits < CASE t.key WHEN ${pairKey} THEN ${limits.perPair}::int WHEN ${accountKey} THEN ${limits.perAccount}::int
                                  WHEN ${dayKey} THEN ${dayLimit}::int ELSE ${limits.perAddress}::int END
        RETURNING key, hits`,
      );
      const got = new Map(reserved.map((r) => [r.key, r.hits]));
      if (got.size < keys.length) {
        await refund([...got.keys()]);
        // Until the counters that refused let go: a window's lock is not told the day's end.
        const refused = keys.filter((key) => !got.has(key));
        const [locked] = await db.$queryRaw<{ seconds: number }[]>`
          SELECT extract(epoch FROM max(window_ends_at) - now())::float8 AS seconds
          FROM throttle_counters WHERE key = ANY(${refused}::text[]) AND window_ends_at > now()`;
        throw tooMany(locked?.seconds ?? windowMs / 1000, secret);
      }

      // A password's account slows down, for addresses that have already failed on it.
      const pairFailuresBefore = (got.get(pairKey) ?? 1) - 1;
      if (!lockAccount && pairFailuresBefore > 0) {
        const [accountRow] = await db.$queryRaw<{ hits: number; wait: number }[]>`
          SELECT hits, extract(epoch FROM last_hit_at - now())::float8 AS wait
          FROM throttle_counters WHERE key = ${accountKey} AND window_ends_at > now()`;
        if (accountRow && accountRow.hits >= limits.perAccount) {
          const delay = Math.min(2 ** (accountRow.hits - limits.perAccount), MAX_ACCOUNT_DELAY_SECONDS);
          const remaining = accountRow.wait + delay;
          if (remaining > 0) {
            // Nothing was checked: no failure of the day's either.
            await refund([pairKey, addressKey, ...(dayReserved ? [dayKey] : [])]);
            throw tooMany(remaining);
          }
        }
      }

      return {
        async succeeded() {
          await retryLostRace(
            () => db.$executeRaw`
              DELETE FROM throttle_counters
              WHERE key IN (SELECT key FROM throttle_counters WHERE key = ANY(${[pairKey, accountKey, dayKey]}::text[]) ORDER BY key FOR UPDATE)`,
          );
          await refund([addressKey]);
        },
        async failed() {
          const pairLocked = (got.get(pairKey) ?? 0) >= limits.perPair;
          // A second factor's account was counted with the reservation: the one that reached the limit locked it.
          if (lockAccount) return { locked: pairLocked || got.get(accountKey) === limits.perAccount || got.get(dayKey) === perDay };
          // The day's was reserved with the attempt, unless the browser is a known one: counted here then.
          const counted = dayReserved ? [accountKey] : [accountKey, dayKey];
          await retryLostRace(
            () => db.$executeRaw`
            INSERT INTO throttle_counters AS t (key, hits, window_ends_at, last_hit_at)
            SELECT k, 1, now() + (CASE WHEN k = ${dayKey} THEN ${DAY_MS}::int ELSE ${windowMs}::int END) * interval '1 millisecond', now()
            FROM unnest(${counted}::text[]) AS k
            ON CONFLICT (key) DO UPDATE SET
              hits = CASE WHEN t.window_ends_at <= now() THEN 1 ELSE t.hits + 1 END,
              window_ends_at = CASE WHEN t.window_ends_at <= now() THEN excluded.window_ends_at ELSE t.window_ends_at END,
              last_hit_at = now()`,
          );
          return { locked: pairLocked };
        },
        release: () => refund(keys),
      };
    },

    /**
     * Forgets every failure at `secret` on an account: its password was reset (it is locked out from
     * nowhere), or an Admin reset its second factor.
     */
    forgetAccount: (account: string, secret: CheckedSecret = 'password') =>
      retryLostRace(
        () => db.$executeRaw`
          DELETE FROM throttle_counters
          WHERE key IN (SELECT key FROM throttle_counters
                        WHERE key = ANY(${[
                          `${secret}:account:${account}`,
                          `${secret}:day:${account}`,
                          // A reset ends the sign-ins of whoever had the password: the owner may sign in again at once.
                          ...(secret === 'password' ? [signedInKey(account)] : []),
                        ]}::text[])
                           OR key LIKE ${`${secret}:pair:${escapeLike(account)}|%`}
                        ORDER BY key FOR UPDATE)`,
      ),

    /**
     * Refuses (429) a sign-in of an account that has already signed in SIGN_INS_PER_ACCOUNT_HOUR times
     * this hour, before its password is checked: the refusal costs no bcrypt check.
     */
    async refuseIfSignedInTooOften(account: string) {
      const [counter] = await db.$queryRaw<{ hits: number; seconds: number }[]>`
        SELECT hits, extract(epoch FROM window_ends_at - now())::float8 AS seconds
        FROM throttle_counters WHERE key = ${signedInKey(account)} AND window_ends_at > now()`;
      if (counter && counter.hits >= SIGN_INS_PER_ACCOUNT_HOUR) throw refuse.rateLimited('sign-ins', counter.seconds * 1000);
    },
    /** Counts a sign-in with the right password that started a session toward its account's hour. */
    signedIn: (account: string) => countHit(db, signedInKey(account), HOUR_MS),

    /** Deletes counters whose window ended more than an hour ago. */
    purge: () => db.$executeRaw`DELETE FROM throttle_counters WHERE window_ends_at < now() - interval '1 hour'`,
  };
}

export type LoginThrottle = ReturnType<typeof loginThrottle>;

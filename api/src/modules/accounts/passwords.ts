// Password hashing. Passwords are normalized (NFKC) and pre-hashed with SHA-256 before bcrypt, so
// a password of any length in any script keeps all its characters (bcrypt alone reads 72 bytes, and
// 64 Greek or Chinese characters exceed that). Hashes made before the pre-hash (plain bcrypt) still
// verify, and are replaced at the next sign-in, as are hashes cheaper than the configured cost.
import { createHash, randomBytes } from 'node:crypto';
import { passwordProblem } from '@bookshop/rules';
import { isCommonPassword } from '@bookshop/rules/common-passwords';
import bcrypt from 'bcrypt';
import pLimit from 'p-limit';
import { AppError } from '../../lib/errors.ts';
import { refuse } from '../../lib/refusals.ts';

/** Marks our format: `bcrypt-sha256:` followed by a bcrypt hash of the pre-hash. */
const PREHASHED = 'bcrypt-sha256:';
const BCRYPT_MAX_BYTES = 72;

const prehash = (password: string) => createHash('sha256').update(password.normalize('NFKC')).digest('base64');

/**
 * What names a password hash outside the account's row (a sign-in step, a session's start
 * condition): its SHA-256, so no copy of the hash itself is kept.
 */
export const passwordFingerprint = (passwordHash: string) => createHash('sha256').update(passwordHash).digest('hex');
/** passwordFingerprint of an account row's `password_hash`, in SQL. */
export const PASSWORD_FINGERPRINT_SQL = "encode(sha256(convert_to(password_hash, 'UTF8')), 'hex')";

/** Refuses a password the rules of @bookshop/rules refuse (the web forms show the same messages). */
export function assertAcceptablePassword(password: string, account?: string) {
  const problem = passwordProblem(password, { account, isCommon: isCommonPassword });
  if (problem) throw refuse.weakPassword(problem);
}

export interface PasswordCheck {
  ok: boolean;
  /** The stored hash is of the old format or cheaper than the configured cost: store a new one. */
  needsRehash: boolean;
}

export interface HashingLimits {
  /** bcrypt runs on libuv's 4 threads; more at once only queues. */
  concurrent: number;
  /** Waiting hashes beyond which a sign-in is answered 503 at once instead of queueing CPU work. */
  queued: number;
  /**
   * Of those, the checks of a password against no account (made-up names) that hash at once: past
   * them such a check hashes nothing (below). Without this lane, names made up by the thousand from
   * many addresses (each within its own sign-in limit) took every thread and queue place, and the
   * shop's people were answered 503 BUSY at sign-in, sign-up and password changes. Nothing waits in
   * it: a made-up name queued behind another would take longer than a real one beside it, and tell.
   */
  unknownAccountsAtOnce: number;
}

export const DEFAULT_HASHING_LIMITS: HashingLimits = { concurrent: 4, queued: 32, unknownAccountsAtOnce: 1 };

/**
 * How long a check entering now would take, at `typicalMs` a hash: its own hash, after waiting (when
 * every thread is taken) for as many hashes to end as are ahead of it beyond the threads, which end
 * `concurrent` at a time a hash. What a made-up name past its lane waits instead, so that the time
 * does not tell it from a real name's wrong password among the sign-ins the hasher holds.
 */
export const expectedCheckMs = (typicalMs: number, running: number, waiting: number, concurrent: number) =>
  typicalMs * (1 + Math.max(0, running + waiting + 1 - concurrent) / concurrent);

export function passwordHasher(cost: number, limits: HashingLimits = DEFAULT_HASHING_LIMITS) {
  const limit = pLimit(limits.concurrent);
  const full = () => limit.activeCount + limit.pendingCount >= limits.concurrent + limits.queued;
  const busy = () => new AppError(503, 'BUSY', 'The shop is busy signing people in. Please try again in a moment.', { 'retry-after': '2' });
  const capped = <T>(work: () => Promise<T>): Promise<T> => (full() ? Promise.reject(busy()) : limit(work));

  /** How long one check takes here, as the last ones took (a moving average); at first, the dummy's hash. */
  let typicalCheckMs = 0;
  // Compared against when the account does not exist, at the same cost as real hashes, so a wrong
  // account costs as long as a wrong password and timing does not tell which accounts exist.
  const dummyStarted = performance.now();
  const dummy = bcrypt.hash(prehash(randomBytes(16).toString('hex')), cost).then((h) => {
    typicalCheckMs = performance.now() - dummyStarted;
    return PREHASHED + h;
  });
  /** Checks against no account hashing now (at most `unknownAccountsAtOnce`). */
  let unknownHashing = 0;

  const check = (password: string, stored: string | null | undefined): Promise<PasswordCheck> =>
    capped(async () => {
      const started = performance.now();
      try {
        const hash = stored ?? (await dummy);
        const legacy = !hash.startsWith(PREHASHED);
        let ok: boolean;
        if (!legacy) ok = await bcrypt.compare(prehash(password), hash.slice(PREHASHED.length));
        else if (Buffer.byteLength(password, 'utf8') <= BCRYPT_MAX_BYTES) ok = await bcrypt.compare(password, hash);
        else ok = (await bcrypt.compare(prehash(password), (await dummy).slice(PREHASHED.length))) && false;
        ok &&= stored != null;
        const rounds = bcrypt.getRounds(legacy ? hash : hash.slice(PREHASHED.length));
        return { ok, needsRehash: ok && (legacy || rounds < cost) };
      } finally {
        typicalCheckMs = 0.9 * typicalCheckMs + 0.1 * (performance.now() - started);
      }
    });

  return {
    hash: (password: string) => capped(async () => PREHASHED + (await bcrypt.hash(prehash(password), cost))),

    verify: async (password: string, stored: string | null | undefined): Promise<PasswordCheck> => {
      if (stored != null) return check(password, stored);
      if (unknownHashing < limits.unknownAccountsAtOnce) {
        unknownHashing++;
        try {
          return await check(password, stored);
        } finally {
          unknownHashing--;
        }
      }
      // The lane is taken: no hash, but the answer a real name's wrong password gets now (503 while
      // the hasher is full), after as long as its check would take.
      if (full()) throw busy();
      const [running, waiting] = [limit.activeCount, limit.pendingCount];
      await dummy;
      await new Promise((resolve) => setTimeout(resolve, expectedCheckMs(typicalCheckMs, running, waiting, limits.concurrent)));
      return { ok: false, needsRehash: false };
    },
  };
}

export type PasswordHasher = ReturnType<typeof passwordHasher>;

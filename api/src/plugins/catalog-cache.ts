// Remembers the public catalog's answers for a few seconds, in this process, and forgets them all as
// soon as the catalog changes anywhere: the database announces every change (a trigger on the
// catalog's tables, and each projection refresh, NOTIFY `catalog_changed`; see decision 11) and each
// instance listens. A read the cache can answer costs no database work at all; a change is seen by
// every instance within the time the notice takes to arrive, not after the cache's lifetime, which
// only bounds what a lost notice or a lagging read replica could leave behind.
//
// Only answers that are the same for everyone are kept: the routes ask for it (routes/public/book-copy.ts).
// While the listening connection is down, nothing is kept and every read goes to the database.
//
// Checkouts come many a second, and each used to forget every answer, so under a day's traffic the
// cache kept almost nothing (issue 32). A checkout that leaves every copy it sold from in stock
// changes only the stock those copies show: it forgets the answers that show one of them, and any
// answer whose route does not say that it reads no other copy's stock. Its notice to the other
// instances names the copies. An import that moves stock alone, none of it into or out of stock,
// names its copies the same way, in notices its transaction sends instead of the triggers' (decision
// 11, amended 2026-11-27). A checkout that sells a copy out, and every other change, still forgets
// everything.
//
// A projection's refresh (each one's notice names it) forgets only the answers that read it: a book's
// detail reads none, so it outlives the refreshes an import or the day's sales bring, and a category
// page outlives a refresh of the search projections. An answer whose route does not say what it
// reads is forgotten by every refresh.
//
// With a read replica (DATABASE_REPLICA_URL), a notice can arrive before the replica has replayed the
// change, and an answer read from it then would be the old one. Until the replica has the change,
// the old answer is also what every read would get from it: so a change is forgotten (by the same
// rule, what it reaches) not when it is heard but once the replica has replayed it, answers loaded
// meanwhile included. Until then kept answers are served, and new ones are kept and shared.
// Forgetting at once, as the cache did before, sent every read of a forgotten answer to the replica,
// each its own query and none kept, just while its replay of an import and of the refreshes after it
// was slowest: a burst of up to 18 category pages at once on the standby at every import, and the
// day's slowest calls (issue 32).
//
// The replica's replay position is asked every REPLICA_POLL_MS at first, less often while it lags (up
// to REPLICA_POLL_MAX_MS), and at each ask the primary's position for the changes heard since the last
// one. So a change is forgotten once the replica has what the primary had written up to
// REPLICA_POLL_MAX_MS (and a pool wait of at most POSITION_TIMEOUT_MS) after it, and at most
// REPLICA_POLL_MAX_MS later: a burst (an import, then its refreshes) is forgotten together. Placing
// each change the moment it was heard forgot the burst piece by piece, and measured worse
// (docs/performance.md). A replica that stalls on that later WAL (a refresh's, waiting on its
// readers) holds the change back too, within the cache's lifetime. An ask that fails or takes over
// POSITION_TIMEOUT_MS forgets the changes waiting at once, as without a replica (and again once the
// replica has them), and so does a replica found promoted. The replica must be one physical standby
// of this primary (not a pool of several, nor a logical copy): one that is not in recovery at start
// turns the cache off.
import fp from 'fastify-plugin';
import pg from 'pg';
import { answerWithin } from '../lib/answer-within.ts';
import { STOCK_ONLY } from '../modules/catalog/catalog-events.ts';
import type { Projection } from './catalog-projections.ts';
import { connectionError } from './prisma.ts';

/** The channel the database's catalog triggers and the projection refresh notify. */
export const CATALOG_CHANGED_CHANNEL = 'catalog_changed';
/**
 * At most this many answers are kept, the oldest going first. Under a day's traffic of 600 catalog
 * misses a second, 500 lasted under a second, not the cache's lifetime (issue 32).
 */
export const CATALOG_CACHE_ENTRIES = 2_000;
/**
 * And at most this much of them, counted as the length of their JSON (inspectAnswer). A 15-book
 * category page is about 10 KB of JSON and 20 KB of heap, so 2,000 of them fit; a page of 100 books or
 * a search's 50 details is ten times that, and the keys are the shoppers' to choose. About 50 MB of
 * heap at most.
 */
export const CATALOG_CACHE_JSON_BYTES = 24 * 2 ** 20;
const RECONNECT_DELAYS_MS = [250, 1_000, 5_000, 15_000];
/** Stock changes are announced at most this often per instance: a burst of checkouts sends one notice. */
export const STOCK_NOTICE_DELAY_MS = 100;
/**
 * A notice naming the copies whose stock alone moved, none into or out of stock (sales, or an import of
 * stock alone): `sold:12,345`. A payload that is neither this nor a refresh's (the triggers' empty
 * one, `stock`) forgets everything. Past this many copies in one notice (a payload holds at most 8,000
 * bytes) sales say `stock` instead, and an import sends several (soldNotices).
 */
const SOLD_NOTICE_PREFIX = 'sold:';
/** The payload of the notice that sales took stock from `copyIds`, none sold out. */
export const soldNotice = (copyIds: Iterable<number>) => `${SOLD_NOTICE_PREFIX}${[...copyIds].join(',')}`;
const SOLD_NOTICE_MOST_COPIES = 500;
/** The notices that name `copyIds`, as many as their number needs (none for none). */
export function soldNotices(copyIds: readonly number[]) {
  const notices: string[] = [];
  for (let from = 0; from < copyIds.length; from += SOLD_NOTICE_MOST_COPIES)
    notices.push(soldNotice(copyIds.slice(from, from + SOLD_NOTICE_MOST_COPIES)));
  return notices;
}
/** A projection's refresh announces itself: `refreshed:browse_listing`. */
const REFRESHED_NOTICE_PREFIX = 'refreshed:';
/** The payload of the notice a refresh of `view` sends at its commit. */
export const refreshedNotice = (view: Projection) => `${REFRESHED_NOTICE_PREFIX}${view}`;
/** How soon a replica that has not yet replayed a change is asked again (milliseconds), doubling up to the most. */
const REPLICA_POLL_MS = 20;
const REPLICA_POLL_MAX_MS = 250;
/**
 * The primary's WAL position now, and whether the replica has replayed that far. The insert position,
 * not the write position: with synchronous_commit off a commit can be inserted but not yet written,
 * and the write position would be behind it. A replica that is not in recovery (a copy kept some
 * other way) has no replay position, and is taken at its word.
 */
const PRIMARY_POSITION = 'SELECT pg_current_wal_insert_lsn()::text AS lsn';
/**
 * How far the replica has replayed, and whether it still replays: a standby promoted since keeps its
 * last position, which a later change would never pass; it reads what the primary has.
 */
const REPLICA_POSITION = 'SELECT pg_is_in_recovery() AS standby, pg_last_wal_replay_lsn()::text AS lsn';
/** An ask of either position that takes longer fails (a half-open connection would hold it for minutes). */
const POSITION_TIMEOUT_MS = 1_000;
const WAL_PAGE_BYTES = 8192n;
const WAL_PAGE_HEADER_MOST_BYTES = 40n;
/** A WAL position ('16/B374D848') as a number of bytes. */
const walPosition = (lsn: string) => {
  const [high = '0', low = '0'] = lsn.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
};
/**
 * The replay position that has a primary position `lsn` ('16/B374D848'). The insert position of a
 * primary whose last record ended on a page boundary points past the next page's header (at most 40
 * bytes, with 8 KB WAL pages), where no record is yet; the standby stops at the boundary, so that
 * counts as reached.
 */
export function replayTarget(lsn: string) {
  const position = walPosition(lsn);
  const intoPage = position % WAL_PAGE_BYTES;
  return intoPage <= WAL_PAGE_HEADER_MOST_BYTES ? position - intoPage : position;
}
/**
 * At most this many changes wait for the replica one by one; past it (a replica that stopped
 * replaying, while sales go on) they are merged into two that forget every answer: those placed, at
 * the latest of their positions, and those not yet placed.
 */
const UNREPLAYED_MOST = 100;
const REPLICA_IS_STANDBY = 'SELECT pg_is_in_recovery() AS standby';

/**
 * How an answer depends on stock. `any` (the default): perhaps on any copy's, as an answer that
 * filters, counts or sorts by the live stock or sales of copies it does not show. `shown`: only on the
 * stock it shows, each beside its copy's id (an object with a numeric `id` and `quantity`: a card or a
 * detail), and on which copies are in stock at all (a sell-out forgets everything). `none`: on no
 * stock (the categories, the suggestions).
 */
export type StockDependence = 'any' | 'shown' | 'none';

/** What a kept answer depends on, so that a change forgets only the answers it changes. */
export interface CachedReadDependence {
  /** How it depends on stock; `any` when not said. */
  stock?: StockDependence;
  /** The projections it reads (their names in its SQL): a refresh of another leaves it kept. Not said: all of them. */
  projections?: readonly Projection[];
}

/**
 * What the cache learns of an answer in one walk, once it is loaded: the copies whose stock it shows
 * (the ids of the objects in it that carry a numeric `quantity`), and about how long its JSON is.
 */
export function inspectAnswer(answer: unknown, found = { copies: new Set<number>(), jsonBytes: 0 }) {
  if (typeof answer === 'string') found.jsonBytes += answer.length + 2;
  else if (Array.isArray(answer)) {
    found.jsonBytes += 2;
    for (const item of answer) inspectAnswer(item, found);
  } else if (answer !== null && typeof answer === 'object') {
    found.jsonBytes += 2;
    const { id, quantity } = answer as { id?: unknown; quantity?: unknown };
    if (typeof id === 'number' && typeof quantity === 'number') found.copies.add(id);
    // for...in, not Object.values: no array per object of a page walked on every load.
    for (const key in answer) {
      found.jsonBytes += key.length + 4;
      inspectAnswer((answer as Record<string, unknown>)[key], found);
    }
  } else found.jsonBytes += 8;
  return found;
}

declare module 'fastify' {
  interface FastifyInstance {
    catalogCache: {
      /**
       * The answer kept under `key`, or `load`'s, kept for the next reads until the catalog changes
       * (for a checkout or a projection's refresh, only if the answer depends on it: `dependence`).
       */
      read<T>(key: string, load: () => Promise<T>, dependence?: CachedReadDependence): Promise<T>;
      /** True while answers are kept: the cache is on and this instance hears the catalog's changes. */
      readonly active: boolean;
      /**
       * With a replica: how many changes heard it is not yet known to have replayed (0 without one),
       * merged ones included. One that stays above 0 is a replica falling behind (or one that cannot
       * be asked, whose changes are forgotten at once meanwhile).
       */
      readonly awaitingReplica: number;
    };
  }
}

interface Entry {
  answer: Promise<unknown>;
  expiresAt: number;
  stock: StockDependence;
  /** The projections it reads; undefined: any. */
  projections: readonly Projection[] | undefined;
  /** `shown`, once loaded: the copies whose stock it shows (until then, unknown). */
  copies?: Set<number>;
  /** Once loaded and kept: about how long its JSON is (0 until then). */
  jsonBytes: number;
}

/** Whether a change reaches an answer, loaded or still loading: what it forgets. */
type Reaches = (entry: Entry) => boolean;
/** A change heard that the replica may not have replayed yet. */
interface UnreplayedChange {
  reaches: Reaches;
  /** How many changes heard it stands for: 1, or those merged into it past UNREPLAYED_MOST. */
  changes: number;
  /** The replay position that has it: the primary's at the wait's first ask after it was heard (undefined until then). */
  target?: bigint;
}
const reachesEverything = () => true;

export default fp(
  async (app) => {
    const lifetimeMs = app.config.catalogCacheMs;
    const entries = new Map<string, Entry>();
    /** The JSON length of the answers kept, loaded ones only. */
    let keptJsonBytes = 0;
    const drop = (key: string, entry: Entry) => {
      entries.delete(key);
      keptJsonBytes -= entry.jsonBytes;
    };
    /**
     * Insertion order is expiry order (one lifetime for all): drops from the oldest end what has
     * expired, and what is over either bound, so memory holds only the last lifetime's answers.
     */
    const trim = (now: number) => {
      for (const [key, entry] of entries) {
        if (entry.expiresAt > now && entries.size <= CATALOG_CACHE_ENTRIES && keptJsonBytes <= CATALOG_CACHE_JSON_BYTES) break;
        drop(key, entry);
      }
    };
    let listening = false;
    let closing = false;
    let listener: pg.Client | null = null;
    let failures = 0;
    const replica = app.config.databaseReplicaUrl !== null;
    /** With a replica: the changes heard that it may not have replayed yet, oldest first, not yet forgotten. */
    let unreplayed: UnreplayedChange[] = [];
    /** With a replica: a wait for it is running. */
    let catchingUp = false;
    /** Warned once per outage, not once a second. */
    let replicaUnreachable = false;
    /** Warned once: the replica was found promoted. */
    let replicaPromoted = false;

    /**
     * Asks the primary's WAL position for the changes heard since it last asked, and the replica's
     * replay position, until the replica has replayed every change heard (changes heard meanwhile
     * included), and forgets what each change reaches once it has. A change heard while the wait
     * sleeps is placed when it wakes (at most REPLICA_POLL_MAX_MS later), so a burst of changes (an
     * import, then its refreshes) is forgotten together rather than one reload after another. A
     * failure (either database unreachable, or slower than POSITION_TIMEOUT_MS) forgets at once what
     * the changes reach, leaves them unreplayed, and a retry tries again: answers kept meanwhile came
     * from a replica that may not have them.
     */
    async function catchUp() {
      if (catchingUp) return;
      catchingUp = true;
      try {
        for (let wait = REPLICA_POLL_MS; unreplayed.length > 0 && !closing; ) {
          const unplaced = unreplayed.filter((change) => change.target === undefined);
          if (unplaced.length > 0) {
            // Through the pool, behind the requests waiting for it: under load the ask comes later and
            // places more of a burst together. On a connection of its own, or the moment each change
            // was heard, the tail measured worse (docs/performance.md).
            const { rows } = await answerWithin(app.databasePool.query<{ lsn: string }>(PRIMARY_POSITION), POSITION_TIMEOUT_MS);
            if (!rows[0]) throw new Error('the primary gave no WAL position');
            const target = replayTarget(rows[0].lsn);
            for (const change of unplaced) change.target = target;
          }
          const [position] = await answerWithin(
            app.catalogSql.query<{ standby: boolean; lsn: string | null }>(REPLICA_POSITION),
            POSITION_TIMEOUT_MS,
          );
          if (position?.standby !== true) {
            // Promoted: it reads what the primary has, and its position will not move again.
            if (!replicaPromoted)
              app.log.warn('catalog cache: the read replica is no longer a standby; changes are forgotten as they come');
            replicaPromoted = true;
            forgetChanges(unreplayed);
            unreplayed = [];
            break;
          }
          replicaPromoted = false;
          const replayed = position.lsn ? walPosition(position.lsn) : -1n;
          const waiting = unreplayed.filter((change) => change.target === undefined || change.target > replayed);
          const progressed = waiting.length < unreplayed.length;
          if (progressed) {
            forgetChanges(unreplayed.filter((change) => !waiting.includes(change)));
            unreplayed = waiting;
          }
          replicaUnreachable = false;
          if (waiting.length === 0) break;
          wait = progressed ? REPLICA_POLL_MS : Math.min(wait * 2, REPLICA_POLL_MAX_MS);
          await new Promise((done) => setTimeout(done, wait));
        }
      } catch (error) {
        if (!closing) {
          forgetChanges(unreplayed);
          if (!replicaUnreachable)
            app.log.warn(
              { err: error instanceof Error ? connectionError(error) : error },
              'catalog cache: could not tell whether the read replica has a change; changes are forgotten as they come until it can',
            );
          replicaUnreachable = true;
          setTimeout(() => void catchUp(), RECONNECT_DELAYS_MS[1]).unref();
        }
      } finally {
        catchingUp = false;
      }
    }

    /**
     * Forgets the answers, loaded or still loading, that `reaches` says a change reaches: one still
     * loading may have read what was there before, and is served to the reads that share it, not kept.
     */
    const forgetNow = (reaches: Reaches) => {
      for (const [key, entry] of entries) if (reaches(entry)) drop(key, entry);
    };
    /** Forgets now what any of `changes` reaches. */
    const forgetChanges = (changes: readonly UnreplayedChange[]) => forgetNow((entry) => changes.some((change) => change.reaches(entry)));

    /** Forgets what a change reaches: at once, or with a replica once it has replayed the change. */
    const forget = (reaches: Reaches) => {
      if (!replica || lifetimeMs === 0 || closing) return forgetNow(reaches);
      unreplayed.push({ reaches, changes: 1 });
      if (unreplayed.length > UNREPLAYED_MOST) {
        // A position already asked is kept: asking anew would put every change behind what comes next.
        let latest: bigint | undefined;
        for (const { target } of unreplayed) if (target !== undefined && (latest === undefined || target > latest)) latest = target;
        const placed = unreplayed.filter((change) => change.target !== undefined);
        const unplaced = unreplayed.filter((change) => change.target === undefined);
        const changesOf = (merged: UnreplayedChange[]) => merged.reduce((sum, change) => sum + change.changes, 0);
        unreplayed = [
          ...(latest === undefined ? [] : [{ reaches: reachesEverything, changes: changesOf(placed), target: latest }]),
          ...(unplaced.length > 0 ? [{ reaches: reachesEverything, changes: changesOf(unplaced) }] : []),
        ];
      }
      void catchUp();
    };

    const clear = () => forget(reachesEverything);

    /**
     * Sales took stock from `copyIds` and none sold out: forgets the answers that depend on it. One
     * still loading may have read the stock before the sale, and later readers would share it: forgotten too.
     */
    const forgetSold = (copyIds: readonly number[]) => {
      // An answer's own copies are a few dozen, and an import's can be thousands: look those up.
      const sold = new Set(copyIds);
      return forget(({ stock, copies }) => {
        if (stock === 'none') return false;
        if (stock === 'any' || !copies) return true;
        for (const id of copies) if (sold.has(id)) return true;
        return false;
      });
    };

    /**
     * `view` was refreshed: forgets the answers that read it, or that do not say what they read,
     * loaded or still loading (one still loading may have read the projection before the refresh).
     */
    const forgetRefreshed = (view: string) => forget(({ projections }) => !projections || projections.includes(view as Projection));

    /** Hears a notice: a sale's copies, a projection's refresh, or (any other payload) a change that forgets everything. */
    const heard = (payload: string | undefined) => {
      if (payload?.startsWith(SOLD_NOTICE_PREFIX)) forgetSold(payload.slice(SOLD_NOTICE_PREFIX.length).split(',').map(Number));
      else if (payload?.startsWith(REFRESHED_NOTICE_PREFIX)) forgetRefreshed(payload.slice(REFRESHED_NOTICE_PREFIX.length));
      else clear();
    };

    /** Opens the listening connection; whatever ends it, or keeps it from opening, tries again later. */
    function connect() {
      if (closing) return;
      const client = new pg.Client({
        connectionString: app.config.databaseUrl,
        connectionTimeoutMillis: app.config.database.connectTimeoutMs,
        application_name: 'bookshop-api-catalog-listener',
        // A connection a firewall drops without a word would otherwise look alive while no notice arrives.
        keepAlive: true,
        keepAliveInitialDelayMillis: 10_000,
      });
      const lost = (error?: Error) => {
        if (listener !== client) return;
        listener = null;
        listening = false;
        forgetNow(reachesEverything);
        client.end().catch(() => {});
        if (closing) return;
        if (failures++ === 0)
          app.log.warn(
            { err: error && connectionError(error) },
            'catalog cache: lost the database notices; reads go to the database until they are back',
          );
        setTimeout(connect, RECONNECT_DELAYS_MS[Math.min(failures, RECONNECT_DELAYS_MS.length) - 1]).unref();
      };
      listener = client;
      client.on('error', lost);
      client.on('end', () => lost());
      client.on('notification', ({ payload }) => heard(payload));
      (async () => {
        await client.connect();
        await client.query(`LISTEN ${CATALOG_CHANGED_CHANNEL}`);
        if (listener !== client) return;
        // Changes made while nobody listened were not heard: start from nothing, and (with a replica)
        // forget again what was loaded before it has what the primary has now.
        forgetNow(reachesEverything);
        clear();
        listening = true;
        if (failures > 0) app.log.info('catalog cache: hears the database notices again');
        failures = 0;
      })().catch(lost);
    }

    let stockNotice: NodeJS.Timeout | null = null;
    /** What the next notice tells: the copies sold from, or 'all' once any other stock change came. */
    let toAnnounce: Set<number> | 'all' = new Set();
    /**
     * After a committed change of stock alone (a checkout, a restock), which the triggers leave to
     * the API: forgets here at once, and tells every instance within STOCK_NOTICE_DELAY_MS. `sold`: a
     * checkout's copies, none sold out; without it, any stock may have moved.
     */
    const stockChanged = (sold?: readonly number[]) => {
      if (sold) forgetSold(sold);
      else clear();
      if (lifetimeMs === 0 || closing) return;
      if (!sold) toAnnounce = 'all';
      else if (toAnnounce !== 'all') for (const id of sold) toAnnounce.add(id);
      if (stockNotice) return;
      stockNotice = setTimeout(announceStock, STOCK_NOTICE_DELAY_MS);
    };
    /** Sends the stock notice gathered since the last one. */
    const announceStock = () => {
      stockNotice = null;
      const payload = toAnnounce === 'all' || toAnnounce.size > SOLD_NOTICE_MOST_COPIES ? 'stock' : soldNotice(toAnnounce);
      toAnnounce = new Set();
      return app.databasePool.query('SELECT pg_notify($1, $2)', [CATALOG_CHANGED_CHANNEL, payload]).then(
        () => {},
        (error: Error) => app.log.warn({ err: connectionError(error) }, 'catalog cache: could not announce a stock change'),
      );
    };

    app.decorate('catalogCache', {
      async read<T>(key: string, load: () => Promise<T>, { stock = 'any', projections }: CachedReadDependence = {}): Promise<T> {
        if (!listening) return load();
        const now = Date.now();
        const kept = entries.get(key);
        if (kept && kept.expiresAt > now) return kept.answer as Promise<T>;
        // Concurrent misses of one key share one load.
        const answer = load();
        const entry: Entry = {
          answer,
          expiresAt: now + lifetimeMs,
          stock,
          projections,
          jsonBytes: 0,
        };
        if (kept) drop(key, kept);
        entries.set(key, entry);
        trim(now);
        let loaded: T;
        try {
          loaded = await answer;
        } catch (error) {
          if (entries.get(key) === entry) drop(key, entry);
          throw error;
        }
        // Forgotten while it loaded, as it may predate the change (a sale forgets what is loading: see
        // forgetSold): served, not kept.
        if (entries.get(key) !== entry) return loaded;
        const found = inspectAnswer(loaded);
        if (stock === 'shown') entry.copies = found.copies;
        entry.jsonBytes = found.jsonBytes;
        keptJsonBytes += found.jsonBytes;
        trim(now);
        return loaded;
      },
      get active() {
        return listening;
      },
      get awaitingReplica() {
        return unreplayed.reduce((sum, change) => sum + change.changes, 0);
      },
    });

    // This instance's own changes are forgotten at once, before the request that made them answers,
    // so its Admin's next read shows them (with a replica, once it has them, as its reads come from
    // it); the database's notice brings them to the others.
    app.catalogEvents.subscribe((event) => {
      // The import's transaction has told every instance (this one included) which copies at its commit.
      if (event.type === 'catalog.imported' && event.changed?.stockMovedAlone) forgetSold(event.changed.stockMovedAlone);
      else if (event.type === 'order.placed' && event.sold && !event.sold.soldOut) stockChanged(event.sold.copyIds);
      else if (STOCK_ONLY.has(event.type)) stockChanged();
      else clear();
    });

    if (lifetimeMs > 0) {
      app.addHook('onReady', async () => {
        if (replica) {
          const standby = await app.catalogSql
            .query<{ standby: boolean }>(REPLICA_IS_STANDBY)
            .then((rows) => rows[0]?.standby === true)
            // Unreachable at start: the cache starts when it can tell, at the first change heard.
            .catch(() => true);
          if (!standby) {
            app.log.error(
              'catalog cache: DATABASE_REPLICA_URL is not a standby in recovery, so it cannot say what it has replayed; the cache stays off',
            );
            return;
          }
        }
        connect();
      });
      app.addHook('onClose', async () => {
        closing = true;
        listening = false;
        // A sale of the last moments is told now, not dropped: the other instances would show its
        // stock as before until their answers' lifetime ended. (The pool closes after this hook.)
        if (stockNotice) {
          clearTimeout(stockNotice);
          await announceStock();
        }
        const client = listener;
        listener = null;
        // A half-open connection would keep end() waiting: shutdown waits a second at most.
        await Promise.race([client?.end().catch(() => {}), new Promise((done) => setTimeout(done, 1_000).unref())]);
      });
    }
  },
  { name: 'catalog-cache', dependencies: ['config', 'prisma', 'catalog-events'] },
);

// Keeps the catalog projections (category_listing, author_listing, home_list_candidates,
// search_shortcuts, search_vocabulary, browse_listing and its counts, search_suggestions; see
// docs/decisions/0007, 0008 and 0015) fresh. Each catalog event (plugins/catalog-events.ts) marks
// stale the projections that order or count what it changed, and each is refreshed CONCURRENTLY
// (reads never wait) once its delay has passed, so a burst of writes costs one refresh. Sales come in
// bursts and move only Bestsellers, Bestselling and the in-stock counts: they refresh the home lists
// at their own delay (an index read per list: milliseconds at any size), and browse_listing at most once
// per SALES_REFRESH_SECONDS across all instances (each catch-up that rewrote rows forgets every cached
// category page). browse_listing is a table, not a view: its refresh is a catch-up of the copies that triggers
// noted since the last one, so its cost follows the changes, not the catalog. Each records in
// projection_refreshes when its refresh began: an instance refreshes after its own changes unless a
// refresh that began after them (whoever ran it) has already taken them in, and the delays bound how
// long any list lags while refreshes are cheap. When they are not (a million books: 20 s to 2 minutes
// each), their own cost paces them: one scheduled refresh at a time across all instances, each
// followed by a rest that keeps them within MAX_REFRESH_SHARE of the database's time (decision 7).
// A staff or review change is also noted in projection_changes until a refresh takes it in, so a
// refresh an instance was waiting for when it stopped is run by the next instance to start.
import fp from 'fastify-plugin';
import { type CatalogEvent, type CatalogEventType, SALES } from '../modules/catalog/catalog-events.ts';
import { CATALOG_CHANGED_CHANNEL, refreshedNotice } from './catalog-cache.ts';

export const PROJECTION_REFRESH_DELAYS_MS = {
  home_list_candidates: 5_000,
  category_listing: 15_000,
  author_listing: 15_000,
  // Built from every word of every book: the costliest, and only short searches read it.
  search_shortcuts: 120_000,
  // Also every word of every book. A word new to the catalog is found at once as typed (a search
  // always tries the word itself); only its misspellings wait for this refresh.
  search_vocabulary: 120_000,
  // Sorts and filters of category pages (issue 30): caught up whenever category_listing is marked stale (FOLLOWERS).
  browse_listing: 15_000,
  // Counted from browse_listing: refreshed in the transaction of each catch-up of it that moved copies, never on its own timer.
  browse_counts: 15_000,
  // Suggestions as a shopper types: every book on sale and every author's name, so like the shortcuts.
  search_suggestions: 120_000,
} as const;
/**
 * The most of the database's time the scheduled refreshes may take together, across instances. At a
 * million books each refresh keeps a core busy for 20 s to 2 minutes, and with an import a minute
 * one of the two cores refreshed all the time, so every read waited for the other (issue 32's day).
 * Refreshes run one at a time, and each is followed by a rest of three times its own length before
 * the next scheduled one of any projection: at most a quarter of one core's time, whatever the
 * catalog's size or the rate of changes. What grows with the catalog is the lists' lag, not the
 * readers' wait. On the seed catalog (refreshes of 50-800 ms) the rest is shorter than the delays.
 */
export const MAX_REFRESH_SHARE = 1 / 4;
const REFRESH_TIMEOUT_MS = 15 * 60_000;
const REFRESH_TIMEOUT = `${REFRESH_TIMEOUT_MS}ms`;
/** A failed refresh is tried again after its delay, then twice as long each time, up to this. */
const MAX_RETRY_DELAY_MS = 10 * 60_000;
/**
 * A scheduled refresh that finds another one running looks again this soon, then twice as long each
 * time up to its own delay: a refresh of the seed catalog ends within it, one at a million books is
 * not asked about every second for minutes.
 */
const FIRST_LOOK_WHEN_BUSY_MS = 250;
/** A start-up's read of the changes noted that failed is tried again this soon, then twice as late each time. */
const FIRST_CATCH_UP_RETRY_MS = 5_000;
export type Projection = keyof typeof PROJECTION_REFRESH_DELAYS_MS;
export const ALL_PROJECTIONS = Object.keys(PROJECTION_REFRESH_DELAYS_MS) as Projection[];
const isProjection = (name: string): name is Projection => Object.hasOwn(PROJECTION_REFRESH_DELAYS_MS, name);
/** The projections that order books by their ratings: a review that moves a book's ratings reorders them. */
const ORDERED_BY_RATINGS: Projection[] = ['home_list_candidates', 'category_listing', 'author_listing'];
/**
 * What prices and stock alone change (migrations *catalog_projections, *browse_and_suggestions):
 * browse_listing sorts and filters by them, and Recommended's pool leaves out what is out of stock.
 * The positions of category_listing and author_listing, and the search projections, read neither.
 */
const PRICE_AND_STOCK: Projection[] = ['home_list_candidates', 'browse_listing'];
/**
 * What a copy put on or taken off sale changes besides: every projection of what is on sale. Only
 * search_vocabulary, every word of every book whether on sale or not, is left as it was.
 */
const ON_SALE: Projection[] = [...PRICE_AND_STOCK, 'category_listing', 'author_listing', 'search_shortcuts', 'search_suggestions'];
/**
 * What each catalog event makes stale (a new event type must say, or this does not compile). Edits of
 * authors, books and copies, and imports that do not say what they wrote, can change any order;
 * stock alone changes the lists that sort or filter by it or hide what is out of stock; a sale moves
 * Bestsellers now and browse_listing at the sales' own pace; ratings reorder the lists ordered by them.
 */
const STALE_AFTER: Record<CatalogEventType, Projection[]> = {
  'author.created': ALL_PROJECTIONS,
  'author.renamed': ALL_PROJECTIONS,
  'author.deleted': ALL_PROJECTIONS,
  'book.created': ALL_PROJECTIONS,
  'book.updated': ALL_PROJECTIONS,
  'book.deleted': ALL_PROJECTIONS,
  'copy.created': ALL_PROJECTIONS,
  'copy.updated': ALL_PROJECTIONS,
  'copy.deleted': ALL_PROJECTIONS,
  'catalog.imported': ALL_PROJECTIONS,
  'copy.restocked': PRICE_AND_STOCK,
  // Bestsellers at the home lists' own delay; browse_listing paced as sales (SALES_PACED below).
  'order.placed': ['home_list_candidates'],
  'order.cancelled': ['home_list_candidates'],
  'book.ratings-moved': ORDERED_BY_RATINGS,
};
/**
 * What sales make stale, refreshed at the sales' pace (SALES_REFRESH_SECONDS) rather than its own delay. The home
 * lists were too, while their refresh ranked the whole catalog (4-12 s at a million books); since it reads
 * an index per list (migration home_lists_by_index) they follow sales at their own 5 s.
 */
const SALES_PACED: Projection[] = ['browse_listing'];
/** The advisory lock class of projection refreshes; the object is the view's place in ALL_PROJECTIONS. */
export const REFRESH_LOCK_CLASS = 0x70726f6a;
/** The object, in REFRESH_LOCK_CLASS, of the turn: one scheduled refresh at a time, of any projection, across instances. */
export const REFRESH_TURN_LOCK = -1;
/** A projection marked stale takes these along: they order or count the same rows. */
const FOLLOWERS: Partial<Record<Projection, Projection[]>> = { category_listing: ['browse_listing'], browse_listing: ['browse_counts'] };
const withFollowers = (projections: Projection[]) => {
  const out = new Set<Projection>();
  const add = (view: Projection) => {
    if (out.has(view)) return;
    out.add(view);
    for (const next of FOLLOWERS[view] ?? []) add(next);
  };
  for (const view of projections) add(view);
  return [...out];
};

/**
 * The projections `event` makes stale, with their followers. An import that says what it wrote
 * (ImportedChanges) makes stale only what reads it: prices and stock always, what is on sale when
 * that changed, and everything when it added books.
 */
export function staleAfter(event: CatalogEvent): Projection[] {
  if (event.type !== 'catalog.imported' || !event.changed) return withFollowers(STALE_AFTER[event.type]);
  if (event.changed.booksAdded) return withFollowers(ALL_PROJECTIONS);
  return withFollowers(event.changed.availabilityChanged ? ON_SALE : PRICE_AND_STOCK);
}

declare module 'fastify' {
  interface FastifyInstance {
    catalogProjections: {
      /**
       * Refreshes now, waiting only for another refresh of the same projection to end, never for the
       * scheduled refreshes' turn or rest (tests, the seed and the benchmark call this).
       */
      refresh(projections?: Projection[]): Promise<void>;
    };
  }
}

/** Why a refresh waits. */
interface Cause {
  /** When this instance saw the newest change the refresh is for (performance.now()): a refresh that began after it has them all. */
  since: number;
  /** Sales alone asked: the refresh waits SALES_REFRESH_SECONDS after the last one any instance began. */
  salesOnly: boolean;
  /** How long to wait when another instance holds the lock, and the first retry after a failure. */
  pace: number;
  /** Failures in a row: each doubles the wait before the next try. */
  failures: number;
  /** Looks in a row that found another refresh running: each doubles the wait before the next, up to `pace`. */
  busyLooks: number;
  /**
   * Not before then (performance.now()): the rest the scheduled refreshes left, or a failure's backoff.
   * A change that comes meanwhile (an order every few seconds) waits with it instead of pulling it in.
   */
  notBefore?: number;
}
type Waiting = Cause & { timer: NodeJS.Timeout; dueAt: number };

/**
 * How a refresh is paced. `now`: an explicit refresh, which waits for the view's lock and nothing
 * else, and is charged no rest (tests, the seed and the bench call it knowingly). `turn`: a scheduled
 * refresh, which takes the cluster's turn or gives up, waits out the rest the last ones left, and
 * leaves its own.
 */
type Pacing = 'now' | 'turn';
/**
 * A refresh's attempt: done (`more`: browse_listing's catch-up left notes for another turn), given up
 * because another holds the turn or the view, or not before `ms` from now.
 */
type Attempt = { outcome: 'refreshed'; more: boolean } | { outcome: 'busy' } | { outcome: 'resting'; ms: number };
const BUSY: Attempt = { outcome: 'busy' };
/** The rest a scheduled refresh leaves, as a multiple of its own time: with the refresh, 1 / MAX_REFRESH_SHARE of it. */
const REST_PER_REFRESH_TIME = 1 / MAX_REFRESH_SHARE;

export default fp(
  async (app) => {
    /** The refreshes waiting, each at the earliest time a change asked for. */
    const pending = new Map<Projection, Waiting>();
    let closed = false;
    const salesIntervalMs = app.config.salesRefreshSeconds * 1000;

    /**
     * Forgets the changes noted for `view` (projection_changes) that its last committed refresh, or
     * the one in `db`'s transaction, began after: they are in it. One noted later stays.
     */
    const forgetChangesTakenIn = (db: Pick<typeof app.prisma, '$executeRaw'>, view: Projection) =>
      db.$executeRaw`DELETE FROM projection_changes c USING projection_refreshes r
                     WHERE c.projection = ${view} AND r.projection = c.projection AND c.changed_at <= r.started_at`;

    /**
     * Refreshes one view in its own transaction, under the view's advisory lock (browse_listing's also
     * under browse_counts', which its catch-up may refresh) and, scheduled, the cluster's turn: an
     * explicit refresh waits for them, a scheduled one gives up when another holds any, and waits
     * out the rest (`resting`). No lock is ever waited for by a scheduled refresh,
     * so a refresh waiting its turn holds no connection that requests could use. A refresh is
     * background work that may outlast the per-request statement timeout at scale: it gets its own.
     * The names are this module's constants, never input. When it began is recorded before its
     * snapshot is taken, and what it took (and the rest it leaves) at its end, only if it commits.
     */
    const refreshView = (view: Projection, pacing: Pacing) =>
      app.prisma.$transaction(
        async (tx): Promise<Attempt> => {
          await tx.$executeRawUnsafe(`SET LOCAL statement_timeout = '${REFRESH_TIMEOUT}'`);
          await tx.$executeRawUnsafe(`SET LOCAL lock_timeout = '${REFRESH_TIMEOUT}'`);
          const viewLock = ALL_PROJECTIONS.indexOf(view);
          // A view's own lock, or the counts' when it is the same (then taken once): always in that order.
          const countsLock = view === 'browse_listing' ? ALL_PROJECTIONS.indexOf('browse_counts') : viewLock;
          if (pacing === 'now') {
            await tx.$executeRaw`SELECT pg_advisory_xact_lock(${REFRESH_LOCK_CLASS}::int, ${viewLock}::int)`;
            await tx.$executeRaw`SELECT pg_advisory_xact_lock(${REFRESH_LOCK_CLASS}::int, ${countsLock}::int)`;
          } else {
            // The turn first: while another scheduled refresh runs, this view's locks are not touched.
            const [{ locked }] = await tx.$queryRaw<[{ locked: boolean }]>`
              SELECT CASE WHEN pg_try_advisory_xact_lock(${REFRESH_LOCK_CLASS}::int, ${REFRESH_TURN_LOCK}::int)
                          THEN CASE WHEN pg_try_advisory_xact_lock(${REFRESH_LOCK_CLASS}::int, ${viewLock}::int)
                                    THEN pg_try_advisory_xact_lock(${REFRESH_LOCK_CLASS}::int, ${countsLock}::int) ELSE false END
                          ELSE false END AS locked`;
            if (!locked) return BUSY;
          }
          if (pacing === 'turn') {
            // Read under the turn, so no other scheduled refresh can have begun since.
            const [{ ms }] = await tx.$queryRaw<[{ ms: number | null }]>`
              SELECT (extract(epoch FROM max(rest_until) - clock_timestamp()) * 1000)::float8 AS ms FROM projection_refreshes`;
            if (ms !== null && ms > 0) return { outcome: 'resting', ms };
          }
          await tx.$executeRaw`INSERT INTO projection_refreshes (projection, started_at) VALUES (${view}, clock_timestamp())
                               ON CONFLICT (projection) DO UPDATE SET started_at = excluded.started_at`;
          // What was refreshed: every instance's catalog cache forgets what reads each (at commit).
          const refreshed: Projection[] = [];
          let more = false;
          if (view === 'browse_listing') {
            // A table kept from the copies noted since the last catch-up, not rebuilt (migration
            // browse_listing_kept_by_changes): its cost follows the changes, not the catalog's size.
            // At most its default number of notes (a backlog takes several turns).
            const [caughtUp] = await tx.$queryRaw<[{ rewritten: bigint; membership_changed: boolean; more: boolean }]>`
              SELECT rewritten, membership_changed, more FROM browse_listing_catch_up()`;
            more = caughtUp.more;
            // One that rewrote nothing leaves every answer read from the listing true.
            if (caughtUp.rewritten > 0n) refreshed.push(view);
            // Autovacuum keeps a table's statistics; an explicit catch-up may follow a bulk load.
            if (pacing === 'now' && caughtUp.rewritten > 0n) await tx.$executeRawUnsafe(`ANALYZE ${view}`);
            // The counts change only when copies came, went or moved between categories or authors, and
            // are counted in this transaction then: no crash or close between two can leave them behind.
            if (caughtUp.membership_changed) {
              await tx.$executeRawUnsafe('REFRESH MATERIALIZED VIEW CONCURRENTLY browse_counts');
              await tx.$executeRawUnsafe('ANALYZE browse_counts');
              refreshed.push('browse_counts');
            }
          } else {
            await tx.$executeRawUnsafe(`REFRESH MATERIALIZED VIEW CONCURRENTLY ${view}`);
            // Fresh statistics, or the planner guesses the view's size and may join it by scanning.
            await tx.$executeRawUnsafe(`ANALYZE ${view}`);
            refreshed.push(view);
          }
          for (const each of refreshed) await tx.$executeRawUnsafe(`NOTIFY ${CATALOG_CHANGED_CHANNEL}, '${refreshedNotice(each)}'`);
          // The changes noted before this refresh began are in it (a catch-up that left notes is not done).
          if (!more) await forgetChangesTakenIn(tx, view);
          // The rest starts from the latest one left, or from this refresh's start once that has passed;
          // an explicit refresh keeps the rest as it was.
          await tx.$executeRaw`
            UPDATE projection_refreshes r
            SET took_ms = round(extract(epoch FROM done.took) * 1000)::int,
                rest_until = CASE WHEN ${pacing !== 'now'}
                                  THEN greatest(r.started_at, done.rest_until) + done.took * ${REST_PER_REFRESH_TIME}::float8
                                  ELSE r.rest_until END
            FROM (SELECT clock_timestamp() - started_at AS took, (SELECT max(rest_until) FROM projection_refreshes) AS rest_until
                  FROM projection_refreshes WHERE projection = ${view}) done
            WHERE r.projection = ${view}`;
          return { outcome: 'refreshed', more };
        },
        { timeout: REFRESH_TIMEOUT_MS, maxWait: REFRESH_TIMEOUT_MS },
      );

    /**
     * How long ago the view's last committed refresh began, by any instance (Infinity: never), on the
     * database's clock alone: compared with this instance's own elapsed times, never its clock.
     */
    const sinceLastRefreshMs = async (view: Projection) => {
      const [row] = await app.prisma.$queryRaw<{ ms: number }[]>`
        SELECT (extract(epoch FROM clock_timestamp() - started_at) * 1000)::float8 AS ms
        FROM projection_refreshes WHERE projection = ${view}`;
      return row?.ms ?? Number.POSITIVE_INFINITY;
    };

    const refresh = async (projections: Projection[] = ALL_PROJECTIONS) => {
      // browse_counts after browse_listing, whose catch-up refreshes it too when it moved copies.
      const last = projections.filter((view) => view === 'browse_counts');
      for (const view of [...projections.filter((view) => view !== 'browse_counts'), ...last]) {
        // Every note, however many turns they take.
        let attempt: Attempt;
        do attempt = await refreshView(view, 'now');
        while (attempt.outcome === 'refreshed' && attempt.more);
      }
    };

    /**
     * Refreshes `view` in `delayMs` for `cause`, unless a refresh already waits that will come sooner
     * (or, for sales, one that already waits for the sales' interval), which then answers for it too;
     * either way, not before the rest or the backoff that the waiting one or `cause` waits out.
     * Nothing is scheduled once the app is closing.
     */
    const schedule = (view: Projection, delayMs: number, cause: Cause) => {
      if (closed) return;
      const now = performance.now();
      const waiting = pending.get(view);
      const notBefore = Math.max(waiting?.notBefore ?? 0, cause.notBefore ?? 0);
      // The sooner of the two (for sales, the one already waiting), and never before a rest or a backoff ends.
      const sooner = !waiting
        ? now + delayMs
        : waiting.salesOnly && cause.salesOnly
          ? waiting.dueAt
          : Math.min(waiting.dueAt, now + delayMs);
      const dueAt = Math.max(sooner, notBefore);
      const merged: Cause = waiting
        ? {
            // The latest change: a refresh covers them all only if it began after the last one.
            since: Math.max(waiting.since, cause.since),
            salesOnly: waiting.salesOnly && cause.salesOnly,
            pace: Math.min(waiting.pace, cause.pace),
            failures: Math.max(waiting.failures, cause.failures),
            busyLooks: Math.max(waiting.busyLooks, cause.busyLooks),
            notBefore,
          }
        : { ...cause, notBefore };
      if (waiting?.dueAt === dueAt) {
        Object.assign(waiting, merged);
        return;
      }
      if (waiting) clearTimeout(waiting.timer);
      const timer = setTimeout(() => void run(view), dueAt - now).unref();
      pending.set(view, { ...merged, timer, dueAt });
    };

    /**
     * A waiting refresh's time: skipped when another refresh already took its changes in, put off
     * while the scheduled refreshes rest or another one runs.
     */
    const run = async (view: Projection) => {
      const waiting = pending.get(view);
      if (!waiting) return;
      pending.delete(view);
      const { since, salesOnly, pace, failures, busyLooks } = waiting;
      const attemptedAt = performance.now();
      try {
        // Read before the query, so the query's own time counts as after the changes (errs towards refreshing).
        const seenAgoMs = performance.now() - since;
        const lastMs = await sinceLastRefreshMs(view);
        // A refresh that began after this instance saw the changes has them all (a change is announced
        // after its commit, and the refresh's snapshot is taken after its start is recorded).
        if (lastMs < seenAgoMs) {
          await forgetChangesTakenIn(app.prisma, view);
          return;
        }
        if (salesOnly && lastMs < salesIntervalMs)
          return schedule(view, salesIntervalMs - lastMs, { since, salesOnly, pace, failures, busyLooks });
        const attempt = await refreshView(view, 'turn');
        // A catch-up that left notes takes another turn: after the rest its own time leaves, at the refreshes' share.
        if (attempt.outcome === 'refreshed' && attempt.more)
          return schedule(view, 0, { since: performance.now(), salesOnly: false, pace, failures: 0, busyLooks: 0 });
        if (attempt.outcome === 'refreshed') return;
        // The database's share for refreshes is spent until then: the changes wait, merged with any that come.
        if (attempt.outcome === 'resting')
          return schedule(view, attempt.ms, { since, salesOnly, pace, failures, busyLooks: 0, notBefore: performance.now() + attempt.ms });
        // Another refresh has the turn or the view, perhaps from before these changes: look again later.
        const lookAgainMs = Math.min(pace, FIRST_LOOK_WHEN_BUSY_MS * 2 ** busyLooks);
        return schedule(view, lookAgainMs, { since, salesOnly, pace, failures: 0, busyLooks: busyLooks + 1 });
      } catch (error) {
        // The pool ends with the app: a refresh cut short by the close is not a failure to retry.
        if (closed) return;
        app.log.warn({ err: error, view }, 'could not refresh a catalog projection');
        // A failed refresh leaves no rest in the database (it rolled back): it rests here for the time it took.
        const restMs = (performance.now() - attemptedAt) * REST_PER_REFRESH_TIME;
        const retryMs = Math.max(Math.min(pace * 2 ** failures, MAX_RETRY_DELAY_MS), restMs);
        schedule(view, retryMs, { since, salesOnly, pace, failures: failures + 1, busyLooks: 0, notBefore: performance.now() + retryMs });
      }
    };

    /**
     * Notes in the database that `views` wait for a refresh: an instance stopped before their delay
     * has passed (a deploy, a crash) leaves them to the next one to start, which refreshes them.
     * Written after the change's commit, as the event comes; a failure to note it costs only that.
     */
    const noteChanged = (views: Projection[]) => {
      if (closed) return;
      app.prisma.$executeRaw`
        INSERT INTO projection_changes (projection, changed_at) SELECT unnest(${views}::text[]), clock_timestamp()
        ON CONFLICT (projection) DO UPDATE SET changed_at = excluded.changed_at`.catch((error: unknown) => {
        if (!closed) app.log.warn({ err: error, views }, 'could not note a catalog change for the projections');
      });
    };

    /**
     * Marks projections stale (with their followers); each is refreshed once its delay has passed.
     * `lasting`: noted in the database too (staff and review changes; the next sale, or
     * browse_listing's own notes, take in a sale whose refresh an instance took with it).
     */
    const changed = (projections: Projection[], lasting: boolean) => {
      const since = performance.now();
      // browse_counts is refreshed in browse_listing's catch-up, never on its own.
      const views = projections.filter((view) => view !== 'browse_counts');
      for (const view of views) {
        const delay = PROJECTION_REFRESH_DELAYS_MS[view];
        schedule(view, delay, { since, salesOnly: false, pace: delay, failures: 0, busyLooks: 0 });
      }
      if (lasting) noteChanged(views);
    };

    /**
     * At start-up, the changes noted that no refresh has taken in yet (an instance stopped or crashed
     * while their refresh waited): each is scheduled for when its delay from the change ends.
     */
    const catchUpNotedChanges = async () => {
      const noted = await app.prisma.$queryRaw<{ projection: string; ago_ms: number }[]>`
        SELECT projection, (extract(epoch FROM clock_timestamp() - changed_at) * 1000)::float8 AS ago_ms FROM projection_changes`;
      const now = performance.now();
      for (const { projection, ago_ms: agoMs } of noted) {
        if (!isProjection(projection) || projection === 'browse_counts') continue;
        const delay = PROJECTION_REFRESH_DELAYS_MS[projection];
        schedule(projection, Math.max(0, delay - agoMs), { since: now - agoMs, salesOnly: false, pace: delay, failures: 0, busyLooks: 0 });
      }
    };

    /**
     * A sale moves Bestselling and the in-stock counts of browse_listing. Orders come in a steady flow,
     * and each catch-up that took a sale forgets every cached category page and search results page in every instance
     * (and, while it was rebuilt whole, cost 20 s at a million books). Each gathers a burst (its own delay,
     * or the whole interval when that is shorter), and comes no sooner than SALES_REFRESH_SECONDS after the
     * last one any instance began (run() reads it when the gathering ends), and not at all if one
     * began after the sales: a steady flow of orders costs one refresh per interval, however many
     * instances take them.
     */
    const sold = () => {
      for (const view of SALES_PACED) {
        const gatherMs = Math.min(PROJECTION_REFRESH_DELAYS_MS[view], salesIntervalMs);
        schedule(view, gatherMs, { since: performance.now(), salesOnly: true, pace: gatherMs, failures: 0, busyLooks: 0 });
      }
    };

    app.catalogEvents.subscribe((event) => {
      changed(staleAfter(event), !SALES.has(event.type));
      if (SALES.has(event.type)) sold();
    });
    // Read once at start, and again (each time twice as late) while the database does not answer, as
    // at a failover during a deploy: the start is not held up, and the notes are not given up on.
    const catchUpWhenReadable = (waitMs: number) => {
      if (closed) return;
      catchUpNotedChanges().catch((error: unknown) => {
        if (closed) return;
        app.log.warn({ err: error, retryInMs: waitMs }, 'could not read the catalog changes waiting for their projections');
        setTimeout(() => catchUpWhenReadable(Math.min(waitMs * 2, MAX_RETRY_DELAY_MS)), waitMs).unref();
      });
    };
    app.addHook('onReady', async () => catchUpWhenReadable(FIRST_CATCH_UP_RETRY_MS));
    app.decorate('catalogProjections', { refresh });
    app.addHook('onClose', async () => {
      closed = true;
      for (const { timer } of pending.values()) clearTimeout(timer);
      pending.clear();
    });
  },
  { name: 'catalog-projections', dependencies: ['prisma', 'config', 'catalog-events'] },
);

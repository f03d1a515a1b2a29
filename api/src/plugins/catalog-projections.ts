// Keeps the catalog projections (category_listing, author_listing, home_list_candidates,
// search_shortcuts, search_vocabulary, browse_listing and its counts, search_suggestions; see
// docs/decisions/0007, 0008 and 0015) fresh. Each catalog event (plugins/catalog-events.ts) marks
// stale the projections that order or count what it changed, and each is refreshed CONCURRENTLY
// (reads never wait) once its delay has passed, so a burst of writes costs one refresh. Sales come in
// bursts and move only Bestselling and the in-stock counts: they refresh the home lists and
// browse_listing at most once per SALES_REFRESH_SECONDS across all instances. One instance refreshes a projection at a time (an
// advisory lock), and each records in projection_refreshes when its refresh began: an instance
// refreshes after its own changes unless a refresh that began after them (whoever ran it) has
// already taken them in, and the delays bound how long any list lags.
import fp from 'fastify-plugin';
import { type CatalogEventType, SALES } from '../modules/catalog/catalog-events.ts';
import { CATALOG_CHANGED_CHANNEL } from './catalog-cache.ts';

export const PROJECTION_REFRESH_DELAYS_MS = {
  home_list_candidates: 5_000,
  category_listing: 15_000,
  author_listing: 15_000,
  // Built from every word of every book: the costliest, and only short searches read it.
  search_shortcuts: 120_000,
  // Also every word of every book. A word new to the catalog is found at once as typed (a search
  // always tries the word itself); only its misspellings wait for this refresh.
  search_vocabulary: 120_000,
  // Sorts and filters of category pages (issue 30): refreshed whenever category_listing is.
  browse_listing: 15_000,
  // Counted from browse_listing: always refreshed right after it, never on its own timer.
  browse_counts: 15_000,
  // Suggestions as a shopper types: every book on sale and every author's name, so like the shortcuts.
  search_suggestions: 120_000,
} as const;
const REFRESH_TIMEOUT_MS = 15 * 60_000;
const REFRESH_TIMEOUT = `${REFRESH_TIMEOUT_MS}ms`;
/** A failed refresh is tried again after its delay, then twice as long each time, up to this. */
const MAX_RETRY_DELAY_MS = 10 * 60_000;
export type Projection = keyof typeof PROJECTION_REFRESH_DELAYS_MS;
export const ALL_PROJECTIONS = Object.keys(PROJECTION_REFRESH_DELAYS_MS) as Projection[];
/** The projections that order books by their ratings: a review that moves a book's ratings reorders them. */
const ORDERED_BY_RATINGS: Projection[] = ['home_list_candidates', 'category_listing', 'author_listing'];
/**
 * What each catalog event makes stale (a new event type must say, or this does not compile). Edits of
 * authors, books and copies, and imports, can change any order; stock alone changes the lists that
 * order by it or hide what is out of stock; a sale moves Bestsellers now and browse_listing at the
 * sales' own pace; ratings reorder the lists ordered by them.
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
  'copy.restocked': ['home_list_candidates', 'category_listing'],
  // Paced as sales (SALES_PACED below), not by the projections' own delays.
  'order.placed': [],
  'order.cancelled': [],
  'book.ratings-moved': ORDERED_BY_RATINGS,
};
/** What sales make stale, refreshed at the sales' pace (SALES_REFRESH_SECONDS) rather than their own delays. */
const SALES_PACED: Projection[] = ['home_list_candidates', 'browse_listing'];
/** The advisory lock class of projection refreshes; the object is the view's place in ALL_PROJECTIONS. */
export const REFRESH_LOCK_CLASS = 0x70726f6a;
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

declare module 'fastify' {
  interface FastifyInstance {
    catalogProjections: {
      /** Refreshes now, waiting for another instance's refresh to end (tests, the seed and the benchmark call this). */
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
}
type Waiting = Cause & { timer: NodeJS.Timeout; dueAt: number };

export default fp(
  async (app) => {
    /** The refreshes waiting, each at the earliest time a change asked for. */
    const pending = new Map<Projection, Waiting>();
    let closed = false;
    const salesIntervalMs = app.config.salesRefreshSeconds * 1000;

    /**
     * Refreshes one view in its own transaction, under the view's advisory lock: `wait` for it, or give
     * up (false) when another instance holds it. A refresh is background work that may outlast the
     * per-request statement timeout at scale: it gets its own. The names are this module's constants,
     * never input. When it began is recorded before its snapshot is taken, and only if it commits.
     */
    const refreshView = (view: Projection, wait: boolean) =>
      app.prisma.$transaction(
        async (tx) => {
          await tx.$executeRawUnsafe(`SET LOCAL statement_timeout = '${REFRESH_TIMEOUT}'`);
          await tx.$executeRawUnsafe(`SET LOCAL lock_timeout = '${REFRESH_TIMEOUT}'`);
          const lock = [REFRESH_LOCK_CLASS, ALL_PROJECTIONS.indexOf(view)];
          if (wait) await tx.$executeRaw`SELECT pg_advisory_xact_lock(${lock[0]}::int, ${lock[1]}::int)`;
          else {
            const [{ locked }] = await tx.$queryRaw<
              [{ locked: boolean }]
            >`SELECT pg_try_advisory_xact_lock(${lock[0]}::int, ${lock[1]}::int) AS locked`;
            if (!locked) return false;
          }
          await tx.$executeRaw`INSERT INTO projection_refreshes (projection, started_at) VALUES (${view}, clock_timestamp())
                               ON CONFLICT (projection) DO UPDATE SET started_at = excluded.started_at`;
          await tx.$executeRawUnsafe(`REFRESH MATERIALIZED VIEW CONCURRENTLY ${view}`);
          // Fresh statistics, or the planner guesses the view's size and may join it by scanning.
          await tx.$executeRawUnsafe(`ANALYZE ${view}`);
          // Every instance's catalog cache forgets the answers the old projection ordered (at commit).
          await tx.$executeRawUnsafe(`NOTIFY ${CATALOG_CHANGED_CHANNEL}`);
          return true;
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

    // browse_counts is counted from browse_listing, so it follows it in every refresh.
    const withCounts = (views: Projection[]) =>
      views.includes('browse_listing') ? [...new Set([...views, 'browse_counts' as const])] : views;

    const refresh = async (projections: Projection[] = ALL_PROJECTIONS) => {
      for (const view of withCounts(projections)) await refreshView(view, true);
    };

    /**
     * Refreshes `view` in `delayMs` for `cause`, unless a refresh already waits that will come sooner
     * (or, for sales, one that already waits for the sales' interval), which then answers for it too.
     * Nothing is scheduled once the app is closing.
     */
    const schedule = (view: Projection, delayMs: number, cause: Cause) => {
      if (closed) return;
      const dueAt = performance.now() + delayMs;
      const waiting = pending.get(view);
      const merged: Cause = waiting
        ? {
            // The latest change: a refresh covers them all only if it began after the last one.
            since: Math.max(waiting.since, cause.since),
            salesOnly: waiting.salesOnly && cause.salesOnly,
            pace: Math.min(waiting.pace, cause.pace),
            failures: Math.max(waiting.failures, cause.failures),
          }
        : cause;
      if (waiting && (waiting.dueAt <= dueAt || (waiting.salesOnly && cause.salesOnly))) {
        Object.assign(waiting, merged);
        return;
      }
      if (waiting) clearTimeout(waiting.timer);
      const timer = setTimeout(() => void run(view), delayMs).unref();
      pending.set(view, { ...merged, timer, dueAt });
    };

    /** A waiting refresh's turn: skipped when another refresh already took its changes in. */
    const run = async (view: Projection) => {
      const waiting = pending.get(view);
      if (!waiting) return;
      pending.delete(view);
      const { since, salesOnly, pace, failures } = waiting;
      let current = view;
      try {
        // Read before the query, so the query's own time counts as after the changes (errs towards refreshing).
        const seenAgoMs = performance.now() - since;
        const lastMs = await sinceLastRefreshMs(view);
        // A refresh that began after this instance saw the changes has them all (a change is announced
        // after its commit, and the refresh's snapshot is taken after its start is recorded).
        if (lastMs < seenAgoMs) return;
        if (salesOnly && lastMs < salesIntervalMs) return schedule(view, salesIntervalMs - lastMs, { since, salesOnly, pace, failures });
        for (const each of withCounts([view])) {
          current = each;
          // Another instance is refreshing it, perhaps from before these changes: look again later.
          if (!(await refreshView(each, false))) {
            const after = each === view ? { since, salesOnly } : { since: performance.now(), salesOnly: false };
            return schedule(each, pace, { ...after, pace, failures: 0 });
          }
        }
      } catch (error) {
        // The pool ends with the app: a refresh cut short by the close is not a failure to retry.
        if (closed) return;
        app.log.warn({ err: error, view: current }, 'could not refresh a catalog projection');
        // Only what is left (browse_counts, when browse_listing itself was refreshed), from the same changes.
        const retry = current === view ? { since, salesOnly } : { since: performance.now(), salesOnly: false };
        const retryMs = Math.min(pace * 2 ** failures, MAX_RETRY_DELAY_MS);
        schedule(current, retryMs, { ...retry, pace, failures: failures + 1 });
      }
    };

    /** Marks projections stale; each is refreshed once its delay has passed. */
    const changed = (projections: Projection[]) => {
      const since = performance.now();
      // browse_counts is refreshed with browse_listing, never before it.
      for (const view of withFollowers(projections)) {
        const delay = PROJECTION_REFRESH_DELAYS_MS[view];
        if (view !== 'browse_counts') schedule(view, delay, { since, salesOnly: false, pace: delay, failures: 0 });
      }
    };

    /**
     * A sale moves Bestsellers on the home page and Bestselling and the in-stock counts of
     * browse_listing. At a million books each refresh takes seconds (the home lists) to a minute
     * (browse_listing), and orders come in a steady flow: refreshed at the projections' own delays, a
     * flow of checkouts kept a core refreshing. Each refresh gathers a burst (its own delay, or the
     * whole interval when that is shorter), and comes no sooner than SALES_REFRESH_SECONDS after the
     * last one any instance began (run() reads it when the gathering ends), and not at all if one
     * began after the sales: a steady flow of orders costs one refresh per interval, however many
     * instances take them.
     */
    const sold = () => {
      for (const view of SALES_PACED) {
        const gatherMs = Math.min(PROJECTION_REFRESH_DELAYS_MS[view], salesIntervalMs);
        schedule(view, gatherMs, { since: performance.now(), salesOnly: true, pace: gatherMs, failures: 0 });
      }
    };

    app.catalogEvents.subscribe((event) => {
      changed(STALE_AFTER[event.type]);
      if (SALES.has(event.type)) sold();
    });
    app.decorate('catalogProjections', { refresh });
    app.addHook('onClose', async () => {
      closed = true;
      for (const { timer } of pending.values()) clearTimeout(timer);
      pending.clear();
    });
  },
  { name: 'catalog-projections', dependencies: ['prisma', 'config', 'catalog-events'] },
);

// Keeps the catalog projections (category_listing, author_listing, home_list_candidates,
// search_shortcuts, search_vocabulary, browse_listing and its counts, search_suggestions; see
// docs/decisions/0007, 0008 and 0015) fresh. Each catalog event (plugins/catalog-events.ts) marks
// stale the projections that order or count what it changed, and each is refreshed CONCURRENTLY
// (reads never wait) once its delay has passed, so a burst of writes costs one refresh. Sales come in
// bursts and move only Bestselling and the in-stock counts: they refresh browse_listing at most once
// per SALES_REFRESH_SECONDS. One instance refreshes a projection at a time (an advisory lock); each
// instance refreshes after its own changes, and the delays bound how long any list lags.
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
  'order.placed': ['home_list_candidates'],
  'order.cancelled': ['home_list_candidates'],
  'book.ratings-moved': ORDERED_BY_RATINGS,
};
/** The advisory lock class of projection refreshes; the object is the view's place in ALL_PROJECTIONS. */
const REFRESH_LOCK_CLASS = 0x70726f6a;
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

export default fp(
  async (app) => {
    /** The refreshes waiting, each at the earliest time a change asked for. */
    const pending = new Map<Projection, { timer: NodeJS.Timeout; dueAt: number }>();
    /** When this instance last began refreshing browse_listing: sales wait for SALES_REFRESH_SECONDS after it. */
    let browseRefreshedAt = Number.NEGATIVE_INFINITY;
    const salesIntervalMs = app.config.salesRefreshSeconds * 1000;

    /**
     * Refreshes one view in its own transaction, under the view's advisory lock: `wait` for it, or give
     * up (false) when another instance holds it. A refresh is background work that may outlast the
     * per-request statement timeout at scale: it gets its own. The names are this module's constants,
     * never input.
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
          if (view === 'browse_listing') browseRefreshedAt = Date.now();
          await tx.$executeRawUnsafe(`REFRESH MATERIALIZED VIEW CONCURRENTLY ${view}`);
          // Fresh statistics, or the planner guesses the view's size and may join it by scanning.
          await tx.$executeRawUnsafe(`ANALYZE ${view}`);
          // Every instance's catalog cache forgets the answers the old projection ordered (at commit).
          await tx.$executeRawUnsafe(`NOTIFY ${CATALOG_CHANGED_CHANNEL}`);
          return true;
        },
        { timeout: REFRESH_TIMEOUT_MS, maxWait: REFRESH_TIMEOUT_MS },
      );

    // browse_counts is counted from browse_listing, so it follows it in every refresh.
    const withCounts = (views: Projection[]) =>
      views.includes('browse_listing') ? [...new Set([...views, 'browse_counts' as const])] : views;

    const refresh = async (projections: Projection[] = ALL_PROJECTIONS) => {
      for (const view of withCounts(projections)) await refreshView(view, true);
    };

    /** Refreshes `view` in `delayMs`, unless a refresh already waits that will come sooner. */
    const schedule = (view: Projection, delayMs: number) => {
      const dueAt = Date.now() + delayMs;
      const waiting = pending.get(view);
      if (waiting && waiting.dueAt <= dueAt) return;
      if (waiting) clearTimeout(waiting.timer);
      const timer = setTimeout(async () => {
        pending.delete(view);
        try {
          for (const each of withCounts([view])) {
            // Another instance is refreshing it, perhaps from before this change: try again later.
            if (!(await refreshView(each, false))) return schedule(view, PROJECTION_REFRESH_DELAYS_MS[view]);
          }
        } catch (error) {
          app.log.warn({ err: error, view }, 'could not refresh a catalog projection');
        }
      }, delayMs).unref();
      pending.set(view, { timer, dueAt });
    };

    /** Marks projections stale; each is refreshed once its delay has passed. */
    const changed = (projections: Projection[]) => {
      // browse_counts is refreshed with browse_listing, never before it.
      for (const view of withFollowers(projections)) if (view !== 'browse_counts') schedule(view, PROJECTION_REFRESH_DELAYS_MS[view]);
    };

    /**
     * A sale moves Bestselling and the in-stock counts of browse_listing: a million rows to refresh,
     * and orders come in bursts. The refresh gathers a burst (as a catalog write's would, or for the
     * whole interval when that is shorter), and comes no sooner than SALES_REFRESH_SECONDS after this
     * instance's last one, so a steady flow of orders costs one refresh per interval.
     */
    const sold = () => {
      const gatherMs = Math.min(PROJECTION_REFRESH_DELAYS_MS.browse_listing, salesIntervalMs);
      schedule('browse_listing', Math.max(gatherMs, browseRefreshedAt + salesIntervalMs - Date.now()));
    };

    app.catalogEvents.subscribe((event) => {
      changed(STALE_AFTER[event.type]);
      if (SALES.has(event.type)) sold();
    });
    app.decorate('catalogProjections', { refresh });
    app.addHook('onClose', async () => {
      for (const { timer } of pending.values()) clearTimeout(timer);
    });
  },
  { name: 'catalog-projections', dependencies: ['prisma', 'config', 'catalog-events'] },
);

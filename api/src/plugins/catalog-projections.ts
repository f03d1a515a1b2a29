// Keeps the catalog projections (category_listing, author_listing, home_list_candidates,
// search_shortcuts, search_vocabulary; see docs/decisions/0007 and 0008) fresh: a write that changes what one of them orders marks it stale, and it is
// refreshed CONCURRENTLY (reads never wait) once its delay has passed, so a burst of writes costs one
// refresh. Each instance refreshes after its own writes; the delays bound how long any list lags.
import fp from 'fastify-plugin';
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
export const ORDERED_BY_RATINGS: Projection[] = ['home_list_candidates', 'category_listing', 'author_listing'];
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
      /** Marks projections stale; each is refreshed once its delay has passed. */
      changed(projections?: Projection[]): void;
      /** Refreshes now (tests, the seed and the benchmark call this). */
      refresh(projections?: Projection[]): Promise<void>;
    };
  }
}

export default fp(
  async (app) => {
    const pending = new Map<Projection, NodeJS.Timeout>();
    const refresh = async (projections: Projection[] = ALL_PROJECTIONS) => {
      // A refresh is background work that may outlast the per-request statement timeout at scale:
      // it gets its own, in its own transaction. The names are this module's constants, never input.
      // browse_counts is counted from browse_listing, so it follows it in every refresh.
      const views = projections.includes('browse_listing') ? [...new Set([...projections, 'browse_counts' as const])] : projections;
      for (const view of views) {
        await app.prisma.$transaction(
          [
            app.prisma.$executeRawUnsafe(`SET LOCAL statement_timeout = '${REFRESH_TIMEOUT}'`),
            app.prisma.$executeRawUnsafe(`REFRESH MATERIALIZED VIEW CONCURRENTLY ${view}`),
            // Fresh statistics, or the planner guesses the view's size and may join it by scanning.
            app.prisma.$executeRawUnsafe(`ANALYZE ${view}`),
            // Every instance's catalog cache forgets the answers the old projection ordered (at commit).
            app.prisma.$executeRawUnsafe(`NOTIFY ${CATALOG_CHANGED_CHANNEL}`),
          ],
          { timeout: REFRESH_TIMEOUT_MS },
        );
      }
    };
    app.decorate('catalogProjections', {
      changed(projections: Projection[] = ALL_PROJECTIONS) {
        for (const view of withFollowers(projections)) {
          // Refreshed with browse_listing, so never before it.
          if (view === 'browse_counts' || pending.has(view)) continue;
          const timer = setTimeout(() => {
            pending.delete(view);
            refresh([view]).catch((error: Error) => app.log.warn({ err: error, view }, 'could not refresh a catalog projection'));
          }, PROJECTION_REFRESH_DELAYS_MS[view]);
          pending.set(view, timer.unref());
        }
      },
      refresh,
    });
    app.addHook('onClose', async () => {
      for (const timer of pending.values()) clearTimeout(timer);
    });
  },
  { name: 'catalog-projections', dependencies: ['prisma'] },
);

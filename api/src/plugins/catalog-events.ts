// The bus the catalog's changes travel on: services emit one typed event after each committed change
// (modules/catalog/catalog-events.ts), and whatever keeps something derived from the catalog
// subscribes in its own plugin: the catalog cache forgets (plugins/catalog-cache.ts), the projections
// are marked stale (plugins/catalog-projections.ts). Listeners run at once, inside emit, so this
// instance has forgotten before the request that made the change answers; other instances hear it
// from the database (decision 11).
import fp from 'fastify-plugin';
import { writeBudgets } from '../lib/write-budget.ts';
import type { CatalogEvent } from '../modules/catalog/catalog-events.ts';

export interface CatalogEvents {
  /** Announces a committed change. A listener's failure is logged: the change itself stands. */
  emit(event: CatalogEvent): void;
  subscribe(listener: (event: CatalogEvent) => void): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    catalogEvents: CatalogEvents;
  }
}

export default fp(
  async (app) => {
    const listeners: ((event: CatalogEvent) => void)[] = [];
    app.decorate('catalogEvents', {
      emit(event: CatalogEvent) {
        // Outside the request that made the change: what a listener starts (a projection's refresh, a
        // timer) outlives it, and is not held to its time budget (lib/write-budget.ts).
        writeBudgets.exit(() => {
          for (const listener of listeners) {
            try {
              listener(event);
            } catch (error) {
              app.log.error({ err: error, event }, 'a catalog event listener failed');
            }
          }
        });
      },
      subscribe(listener: (event: CatalogEvent) => void) {
        listeners.push(listener);
      },
    });
  },
  { name: 'catalog-events' },
);

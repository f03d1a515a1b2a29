// Remembers the public catalog's answers for a few seconds, in this process, and forgets them all as
// soon as the catalog changes anywhere: the database announces every change (a trigger on the
// catalog's tables, and each projection refresh, NOTIFY `catalog_changed`; see decision 11) and each
// instance listens. A read the cache can answer costs no database work at all; a change is seen by
// every instance within the time the notice takes to arrive, not after the cache's lifetime, which
// only bounds what a lost notice or a lagging read replica could leave behind.
//
// Only answers that are the same for everyone are kept: the routes ask for it (routes/public/book-copy.ts).
// While the listening connection is down, nothing is kept and every read goes to the database.
import fp from 'fastify-plugin';
import pg from 'pg';
import { STOCK_ONLY } from '../modules/catalog/catalog-events.ts';

/** The channel the database's catalog triggers and the projection refresh notify. */
export const CATALOG_CHANGED_CHANNEL = 'catalog_changed';
/**
 * At most this many answers are kept (a search keys one per text, and an answer is up to about 100 KB);
 * the oldest go first.
 */
export const CATALOG_CACHE_ENTRIES = 500;
const RECONNECT_DELAYS_MS = [250, 1_000, 5_000, 15_000];
/** Stock changes are announced at most this often per instance: a burst of checkouts sends one notice. */
export const STOCK_NOTICE_DELAY_MS = 100;

declare module 'fastify' {
  interface FastifyInstance {
    catalogCache: {
      /** The answer kept under `key`, or `load`'s, kept for the next reads until the catalog changes. */
      read<T>(key: string, load: () => Promise<T>): Promise<T>;
      /** True while answers are kept: the cache is on and this instance hears the catalog's changes. */
      readonly active: boolean;
    };
  }
}

interface Entry {
  answer: Promise<unknown>;
  expiresAt: number;
}

export default fp(
  async (app) => {
    const lifetimeMs = app.config.catalogCacheMs;
    const entries = new Map<string, Entry>();
    // Bumped by every change: an answer loaded across a change is not kept, since it may predate it.
    let generation = 0;
    let listening = false;
    let closing = false;
    let listener: pg.Client | null = null;
    let failures = 0;

    const clear = () => {
      generation++;
      entries.clear();
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
        clear();
        client.end().catch(() => {});
        if (closing) return;
        if (failures++ === 0)
          app.log.warn({ err: error }, 'catalog cache: lost the database notices; reads go to the database until they are back');
        setTimeout(connect, RECONNECT_DELAYS_MS[Math.min(failures, RECONNECT_DELAYS_MS.length) - 1]).unref();
      };
      listener = client;
      client.on('error', lost);
      client.on('end', () => lost());
      client.on('notification', clear);
      (async () => {
        await client.connect();
        await client.query(`LISTEN ${CATALOG_CHANGED_CHANNEL}`);
        if (listener !== client) return;
        // Changes made while nobody listened were not heard: start from nothing.
        clear();
        listening = true;
        if (failures > 0) app.log.info('catalog cache: hears the database notices again');
        failures = 0;
      })().catch(lost);
    }

    let stockNotice: NodeJS.Timeout | null = null;
    /**
     * After a committed change of stock alone (a checkout, a restock), which the triggers leave to
     * the API: forgets here at once, and tells every instance within STOCK_NOTICE_DELAY_MS.
     */
    const stockChanged = () => {
      clear();
      if (lifetimeMs === 0 || stockNotice || closing) return;
      stockNotice = setTimeout(() => {
        stockNotice = null;
        app.databasePool
          .query('SELECT pg_notify($1, $2)', [CATALOG_CHANGED_CHANNEL, 'stock'])
          .catch((error: Error) => app.log.warn({ err: error }, 'catalog cache: could not announce a stock change'));
      }, STOCK_NOTICE_DELAY_MS);
    };

    app.decorate('catalogCache', {
      async read<T>(key: string, load: () => Promise<T>): Promise<T> {
        if (!listening) return load();
        const now = Date.now();
        const kept = entries.get(key);
        if (kept && kept.expiresAt > now) return kept.answer as Promise<T>;
        const loadedIn = generation;
        // Concurrent misses of one key share one load.
        const answer = load();
        const entry = { answer, expiresAt: now + lifetimeMs };
        entries.delete(key);
        entries.set(key, entry);
        // Insertion order is expiry order (one lifetime for all): drop from the oldest end what has
        // expired, and what is over the limit, so memory holds only the last lifetime's answers.
        for (const [oldKey, old] of entries) {
          if (old.expiresAt > now && entries.size <= CATALOG_CACHE_ENTRIES) break;
          entries.delete(oldKey);
        }
        try {
          await answer;
        } catch (error) {
          if (entries.get(key) === entry) entries.delete(key);
          throw error;
        }
        if (loadedIn !== generation && entries.get(key) === entry) entries.delete(key);
        return answer;
      },
      get active() {
        return listening;
      },
    });

    // This instance's own changes are forgotten at once, before the request that made them answers,
    // so its Admin's next read shows them; the database's notice brings them to the others.
    app.catalogEvents.subscribe((event) => (STOCK_ONLY.has(event.type) ? stockChanged() : clear()));

    if (lifetimeMs > 0) {
      app.addHook('onReady', async () => {
        connect();
      });
      app.addHook('onClose', async () => {
        closing = true;
        listening = false;
        if (stockNotice) clearTimeout(stockNotice);
        const client = listener;
        listener = null;
        // A half-open connection would keep end() waiting: shutdown waits a second at most.
        await Promise.race([client?.end().catch(() => {}), new Promise((done) => setTimeout(done, 1_000).unref())]);
      });
    }
  },
  { name: 'catalog-cache', dependencies: ['config', 'prisma', 'catalog-events'] },
);

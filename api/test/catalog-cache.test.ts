// The catalog cache: a repeated public catalog read costs no database work, and any change to the
// catalog, made by this instance, another one or by hand in the database, is seen at once, not when
// the cache's lifetime ends (set here to a minute, so a test that waited for it would time out).
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { ImportedChanges } from '../src/modules/catalog/catalog-events.ts';
import { RECOMMENDED_SQL } from '../src/modules/catalog/catalog-queries.ts';
import { catalogImportRunner, NAMED_COPIES_MOST } from '../src/modules/catalog-admin/catalog-import-runner.ts';
import {
  type CatalogTransferRepository,
  type ImportWritten,
  importWrites,
} from '../src/modules/catalog-admin/catalog-transfer-repository.ts';
import {
  CATALOG_CACHE_JSON_BYTES,
  CATALOG_CHANGED_CHANNEL,
  refreshedNotice,
  STOCK_NOTICE_DELAY_MS,
  soldNotice,
  soldNotices,
} from '../src/plugins/catalog-cache.ts';
import { catalogNoticeHeard, createTestApp, DEMO, eventually, ownStatements } from './helpers.ts';

const own = ownStatements();
let recommendedRuns = 0;
const t = await createTestApp({
  env: { CATALOG_CACHE_MS: '60000' },
  onQuery: (sql) => {
    own.onQuery(sql);
    if (sql === RECOMMENDED_SQL) recommendedRuns++;
  },
});
const admin = await t.login(DEMO.admin);

/**
 * Reads `url` until a read runs no statement: the answer was kept. (A notice from elsewhere, such as a
 * projection refresh another test's write set off, may clear it once in between.)
 */
const answeredFromCache = (url: string, readThere: (url: string) => Promise<{ statements: number }> = read) =>
  eventually(async () => (await readThere(url)).statements === 0);

/** Statements a GET ran, and its answer. */
async function read(url: string, cookie = '') {
  const { answer: res, sent } = await own.of(() => t.app.inject({ url, headers: { cookie } }));
  return { statements: sent.length, status: res.statusCode, body: res.body, data: res.statusCode === 200 ? res.json().data : null };
}

async function newCopy(price: string) {
  const [row] = await t.db.query<{ id: number }>(
    `INSERT INTO book_copies (book_id, price, quantity, is_available)
     SELECT id, $1, 5, true FROM books ORDER BY id DESC LIMIT 1 RETURNING id`,
    [price],
  );
  return row!.id;
}

/** A new copy (5 in stock at `price`) whose detail has been read and is now answered from the cache: its id and address. */
async function newCachedCopy(price: string) {
  const id = await newCopy(price);
  const url = `/api/public/book-copy/by-id/${id}`;
  await eventually(async () => (await read(url)).status === 200);
  await answeredFromCache(url);
  return { id, url };
}

await eventually(() => t.app.catalogCache.active);

describe('catalog cache', () => {
  it('answers a repeated read without the database, with the same body', async () => {
    const id = await newCopy('12.00');
    await eventually(async () => (await read(`/api/public/book-copy/by-id/${id}`)).status === 200);
    const fromDatabase = await read(`/api/public/book-copy/by-id/${id}`);
    await answeredFromCache(`/api/public/book-copy/by-id/${id}`);
    expect((await read(`/api/public/book-copy/by-id/${id}`)).body).toBe(fromDatabase.body);
    for (const url of ['/api/public/book-copy/types/', '/api/public/book-copy/best-sellers/', '/api/public/book-copy/by-name/tolkien']) {
      await answeredFromCache(url);
    }
  });

  it('shows a change made by hand in the database, as by another instance, within the time of its notice', async () => {
    const { id, url } = await newCachedCopy('12.00');
    expect((await read(url)).data).toMatchObject({ price: 12, quantity: 5 });
    await t.db.query('UPDATE book_copies SET price = 13.50, quantity = 2 WHERE id = $1', [id]);
    await eventually(async () => (await read(url)).data?.price === 13.5);
    expect((await read(url)).data).toMatchObject({ price: 13.5, quantity: 2 });
    // Withdrawn from sale: the detail says so, and so do the lists, at once.
    await t.db.query('UPDATE book_copies SET is_available = false WHERE id = $1', [id]);
    await eventually(async () => (await read(url)).status === 404);
  });

  it('keeps neither refusals nor a signed-in client’s own recommendations', async () => {
    expect((await read('/api/public/book-copy/by-id/2147483000')).status).toBe(404);
    expect((await read('/api/public/book-copy/by-id/2147483000')).statements).toBe(1);
    const { cookie } = await t.newClient();
    await answeredFromCache('/api/public/book-copy/recommended/');
    recommendedRuns = 0;
    await read('/api/public/book-copy/recommended/', cookie);
    await read('/api/public/book-copy/recommended/', cookie);
    expect(recommendedRuns).toBe(2);
  });

  it("announces a checkout's stock change after its commit; a change of stock alone by hand is left to the lifetime", async () => {
    const { id, url } = await newCachedCopy('9.00');
    // Stock alone, by hand: no trigger announces it (see the migration), so the kept answer stays.
    await t.db.query('UPDATE book_copies SET quantity = 4 WHERE id = $1', [id]);
    await sleep(300);
    expect((await read(url)).data.quantity).toBe(5);
    // A checkout announces its own, once committed.
    const { cookie } = await t.newClient();
    const line = (await t.app.inject({ method: 'POST', url: `/api/client/cart/${id}`, headers: { cookie } })).json().data;
    const order = await t.checkout(cookie, { totalPrice: 9, totalQuantity: 1, cartItemsIds: [line] });
    expect(order.statusCode, order.body).toBe(200);
    await eventually(async () => (await read(url)).data?.quantity === 3);
    // Another instance on the same database hears it too.
    const other = await buildApp(t.config, { logger: false });
    try {
      await other.ready();
      await eventually(() => other.catalogCache.active);
      const quantityThere = async () => (await other.inject({ url })).json().data?.quantity;
      expect(await quantityThere()).toBe(3);
      const again = (await t.app.inject({ method: 'POST', url: `/api/client/cart/${id}`, headers: { cookie } })).json().data;
      expect((await t.checkout(cookie, { totalPrice: 9, totalQuantity: 1, cartItemsIds: [again] })).statusCode).toBe(200);
      await eventually(async () => (await quantityThere()) === 2);
    } finally {
      await other.close();
    }
  });

  it('an instance that closes within the notice delay of a sale tells it as it closes, not never', async () => {
    // Tried up to three times: on a loaded machine the notice's timer may fire before the close begins,
    // and then that attempt says nothing of what the close does.
    for (let attempt = 1; ; attempt++) {
      const { id, url } = await newCachedCopy('9.00');
      const { cookie } = await t.newClient();
      const line = (await t.app.inject({ method: 'POST', url: `/api/client/cart/${id}`, headers: { cookie } })).json().data;
      // The sale goes through an instance that is shut down at once, as a deploy replaces it.
      const closing = await buildApp(t.config, { logger: false });
      await closing.ready();
      await eventually(() => closing.catalogCache.active);
      let closeBegun = false;
      const noticesSent: { duringClose: boolean }[] = [];
      const query = closing.databasePool.query.bind(closing.databasePool);
      vi.spyOn(closing.databasePool, 'query').mockImplementation(((...args: Parameters<typeof query>) => {
        if (String(args[0]).includes('pg_notify')) noticesSent.push({ duringClose: closeBegun });
        return query(...args);
      }) as typeof query);
      const payload = { shipmentAddress: '1 Main Street', totalPrice: 9, totalQuantity: 1, cartItemsIds: [line] };
      const order = await closing.inject({ method: 'POST', url: '/api/client/orders/', headers: { cookie }, payload });
      expect(order.statusCode, order.body).toBe(200);
      closeBegun = true;
      await closing.close();
      if (noticesSent.some((notice) => !notice.duringClose)) {
        if (attempt < 3) continue;
        throw new Error('the notice went before the close in every attempt: the close was not tested');
      }
      expect(noticesSent).toEqual([{ duringClose: true }]);
      // This instance keeps answers a minute: only the notice makes it read the new stock.
      await eventually(async () => (await read(url)).data?.quantity === 4);
      return;
    }
  });

  /** Adds one unit of copy `id` to the cart of the client whose cookie this is, and checks it out at `price`. */
  async function buyOne(cookie: string, id: number, price: number) {
    const line = (await t.app.inject({ method: 'POST', url: `/api/client/cart/${id}`, headers: { cookie } })).json().data;
    const order = await t.checkout(cookie, { totalPrice: price, totalQuantity: 1, cartItemsIds: [line] });
    expect(order.statusCode, order.body).toBe(200);
  }

  /**
   * Whether every one of `urls`, read through `readThere`, was still answered from the cache after
   * `change`. Tried three times: an unrelated notice (a refresh that an earlier sale set off) may
   * forget everything once; before this change, no checkout ever left an answer kept.
   */
  async function keptAcross(change: () => Promise<void>, urls: string[], readThere: (url: string) => Promise<{ statements: number }>) {
    for (let attempt = 0; attempt < 3; attempt++) {
      for (const url of urls) await answeredFromCache(url, readThere);
      await change();
      const after = await Promise.all(urls.map(async (url) => (await readThere(url)).statements));
      if (after.every((n) => n === 0)) return true;
    }
    return false;
  }

  it('a checkout that leaves its copies in stock forgets only the answers that show them, here and on another instance', async () => {
    const sold = await newCachedCopy('9.00');
    const other = await newCachedCopy('9.50');
    const { cookie } = await t.newClient();
    const category = '/api/public/book-copy/browse/Fantasy?sort=price-asc';
    const search = '/api/public/book-copy/search/?text=tolkien';
    let left = 5;
    const sellOne = async () => {
      await buyOne(cookie, sold.id, 9);
      left--;
    };
    expect(await keptAcross(sellOne, [other.url, category, search, '/api/public/book-copy/types/'], read)).toBe(true);
    // The copy sold from shows its new stock at once.
    expect((await read(sold.url)).data.quantity).toBe(left);

    // A category page and a search's results that show a copy sold from are read again and show its stock.
    for (const listing of [category, search]) {
      const page = (await read(listing)).data;
      const shown = page.booksCopies.find((copy: { quantity: number }) => copy.quantity >= 2);
      await answeredFromCache(listing);
      await buyOne(cookie, shown.id, shown.price);
      const after = await read(listing);
      expect(after.statements).toBeGreaterThan(0);
      expect(after.data.booksCopies.find((copy: { id: number }) => copy.id === shown.id).quantity).toBe(shown.quantity - 1);
    }

    // Another instance hears which copies were sold from, and keeps what does not show them.
    const ownThere = ownStatements();
    const instance = await buildApp(t.config, { logger: false, onQuery: ownThere.onQuery });
    try {
      await instance.ready();
      await eventually(() => instance.catalogCache.active);
      const readThere = async (url: string) => {
        const { answer: res, sent } = await ownThere.of(() => instance.inject({ url }));
        return { statements: sent.length, data: res.json().data };
      };
      await answeredFromCache(sold.url, readThere);
      const soldThere = async () => {
        await sellOne();
        await eventually(async () => (await readThere(sold.url)).data.quantity === left);
      };
      expect(await keptAcross(soldThere, [other.url, category], readThere)).toBe(true);
    } finally {
      await instance.close();
    }
  });

  describe('an import', () => {
    /** A book with an ISBN and its first copy (the one an import writes), in stock and on sale: a different one each call. */
    let taken = 0;
    async function importableCopy() {
      const [row] = await t.db.query<{ isbn13: string; id: number; price: string; quantity: number }>(
        `SELECT b.isbn13, c.id, c.price::text AS price, c.quantity
         FROM books b CROSS JOIN LATERAL (SELECT * FROM book_copies WHERE book_id = b.id ORDER BY id LIMIT 1) c
         WHERE b.isbn13 IS NOT NULL AND c.is_available AND c.quantity BETWEEN 3 AND 900 ORDER BY b.id OFFSET $1 LIMIT 1`,
        [taken++],
      );
      return row!;
    }
    /** What the database announced on the catalog's channel, heard as another instance hears it. */
    async function announcements(work: () => Promise<void>) {
      const listener = new pg.Client({ connectionString: t.db.url });
      const heard: string[] = [];
      listener.on('notification', ({ payload }) => heard.push(payload ?? ''));
      await listener.connect();
      /** Sends a notice and waits until both this listener and the instance's have heard it, and all before it. */
      const heardByBoth = async () => {
        await catalogNoticeHeard(t, refreshedNotice('search_suggestions'));
        await eventually(() => heard.includes(refreshedNotice('search_suggestions')));
      };
      try {
        await listener.query(`LISTEN ${CATALOG_CHANGED_CHANNEL}`);
        // A sale's notice still waiting to be sent (up to STOCK_NOTICE_DELAY_MS after it) goes first.
        await sleep(2 * STOCK_NOTICE_DELAY_MS);
        await heardByBoth();
        heard.length = 0;
        await work();
        await heardByBoth();
        return heard.filter((notice) => !notice.startsWith('refreshed:'));
      } finally {
        await listener.end();
      }
    }
    /** Checks and runs a file of `isbn,price,stock,available` lines, and waits for its run to end. */
    async function runImport(lines: string[]) {
      const checked = await t.app.inject({
        method: 'POST',
        url: '/api/employee/catalog/import',
        headers: { cookie: admin, 'content-type': 'text/csv' },
        payload: `isbn,price,stock,available\n${lines.join('\n')}\n`,
      });
      expect(checked.statusCode, checked.body).toBe(200);
      const { id } = checked.json().data;
      const ran = await t.app.inject({
        method: 'POST',
        url: `/api/employee/catalog/import/${id}/run`,
        headers: { cookie: admin },
        payload: { skipInvalid: false },
      });
      expect(ran.statusCode, ran.body).toBeLessThan(300);
      const job = async () => (await t.app.inject({ url: `/api/employee/catalog/import/${id}`, headers: { cookie: admin } })).json().data;
      // A job in the background, not a notice: the time of an import on a loaded machine, not eventually's 2 s.
      await vi.waitFor(async () => expect((await job()).status).not.toBe('running'), { timeout: 20_000, interval: 50 });
      expect((await job()).status).toBe('done');
    }

    it('of stock alone, none into or out of stock, names its copies and forgets only the answers that show them', async () => {
      const other = await newCachedCopy('9.75');
      const copy = await importableCopy();
      const detail = `/api/public/book-copy/by-id/${copy.id}`;
      let quantity = copy.quantity;
      let notices: string[] = [];
      const moveStock = async () => {
        await answeredFromCache(detail);
        quantity++;
        notices = await announcements(() => runImport([`${copy.isbn13},${copy.price},${quantity},true`]));
      };
      expect(await keptAcross(moveStock, [other.url, '/api/public/book-copy/types/'], read)).toBe(true);
      expect(notices).toEqual([soldNotice([copy.id])]);
      const after = await read(detail);
      expect(after.statements).toBeGreaterThan(0);
      expect(after.data.quantity).toBe(quantity);
    });

    it('of stock alone in several statements names every copy of each, in notices of at most 500', async () => {
      const copies = await t.db.query<{ isbn13: string; id: number; price: string; quantity: number }>(
        `SELECT b.isbn13, c.id, c.price::text AS price, c.quantity
         FROM books b CROSS JOIN LATERAL (SELECT * FROM book_copies WHERE book_id = b.id ORDER BY id LIMIT 1) c
         WHERE b.isbn13 IS NOT NULL AND c.is_available AND c.quantity BETWEEN 3 AND 900 ORDER BY b.id DESC LIMIT 501`,
      );
      expect(copies).toHaveLength(501);
      const notices = await announcements(() => runImport(copies.map((copy) => `${copy.isbn13},${copy.price},${copy.quantity + 1},true`)));
      expect(notices).toHaveLength(2);
      const named = notices.flatMap((notice) => notice.slice('sold:'.length).split(',').map(Number));
      expect(named.sort((a, b) => a - b)).toEqual(copies.map((copy) => copy.id).sort((a, b) => a - b));
    });

    it('does not count as stock alone a copy another transaction wrote after its statement began', async () => {
      const copy = await importableCopy();
      const row = (stock: number) => ({
        line: 2,
        isbn13: copy.isbn13,
        price: copy.price,
        stock,
        available: true,
        kind: 'changed' as const,
      });
      const write = (stock: number) => t.app.prisma.$transaction((tx) => importWrites(tx).writeCopies([row(stock)]));
      // Alone, the same write is stock alone.
      expect((await write(copy.quantity + 1)).stockAlone).toBe(true);
      const other = new pg.Client({ connectionString: t.db.url });
      await other.connect();
      try {
        await other.query('BEGIN');
        await other.query('UPDATE book_copies SET quantity = quantity + 1 WHERE id = $1', [copy.id]);
        const written = write(copy.quantity + 5);
        // The import's statement has read the copy as it was, and waits for the other's lock on it.
        await eventually(
          async () =>
            (
              await t.db.query(
                `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%set_copies%'`,
              )
            ).length === 1,
        );
        await other.query('COMMIT');
        expect((await written).stockAlone).toBe(false);
      } finally {
        await other.end();
      }
    });

    it('names at most NAMED_COPIES_MOST copies; past that, every instance forgets everything', async () => {
      for (const [count, named] of [
        [NAMED_COPIES_MOST, true],
        [NAMED_COPIES_MOST + 1, false],
      ] as const) {
        const ids = Array.from({ length: count }, (_, i) => i + 1);
        let answered: number[] | null | undefined;
        let changed: ImportedChanges | undefined;
        const writes = {
          absentBooks: async () => new Set<string>(),
          writeCopies: async () => ({
            missingLine: null,
            otherCopyLine: null,
            priceChangedLine: null,
            importedSinceLine: null,
            stoppedRows: [],
            availabilityChanged: false,
            copyIds: ids,
            stockAlone: true,
          }),
        };
        const repo = {
          plan: async () => [{ line: 2, isbn13: '9780000000002', price: '1.00', stock: 5, available: true, kind: 'changed' }],
          writeInOneTransaction: async (_id: number, _isbns: string[], work: (w: typeof writes) => Promise<ImportWritten>) => {
            answered = (await work(writes)).stockMovedAlone;
          },
          progress: async () => {},
          failed: async () => {
            throw new Error('the import failed');
          },
        } as unknown as CatalogTransferRepository;
        await catalogImportRunner(repo, t.app.log, (written) => {
          changed = written;
        })(1, { actor: 'employee:1', address: '127.0.0.1' });
        expect(answered, String(count)).toEqual(named ? ids : null);
        expect(changed?.stockMovedAlone, String(count)).toEqual(named ? ids : undefined);
      }
    });

    it('names at most 500 copies a notice, each well under the 8,000 bytes a notice holds', () => {
      const ids = Array.from({ length: 1_001 }, (_, i) => 2_000_000_000 + i);
      const notices = soldNotices(ids);
      expect(notices).toHaveLength(3);
      for (const notice of notices) expect(Buffer.byteLength(notice)).toBeLessThan(8_000);
      expect(notices.flatMap((notice) => notice.slice('sold:'.length).split(',').map(Number))).toEqual(ids);
      expect(soldNotices([])).toEqual([]);
    });

    it('of anything more (a price, a copy into or out of stock, or off sale) forgets every answer, here and in every instance', async () => {
      const other = await newCachedCopy('9.85');
      for (const change of ['price', 'out of stock', 'into stock', 'off sale'] as const) {
        const copy = await importableCopy();
        // Out of stock by hand (stock alone: no notice), for the import to put back.
        if (change === 'into stock') await t.db.query('UPDATE book_copies SET quantity = 0 WHERE id = $1', [copy.id]);
        const price = change === 'price' ? (Number(copy.price) + 1).toFixed(2) : copy.price;
        const line = `${copy.isbn13},${price},${change === 'out of stock' ? 0 : copy.quantity},${change !== 'off sale'}`;
        await answeredFromCache(other.url);
        expect(await announcements(() => runImport([line])), change).toEqual(['']);
        expect((await read(other.url)).statements, change).toBeGreaterThan(0);
      }
    });
  });

  it('an answer whose route does not say how it depends on stock is read again after any sale', async () => {
    const { id } = await newCachedCopy('6.00');
    const { cookie } = await t.newClient();
    let loads = 0;
    const readIt = () => t.app.catalogCache.read('no dependence said', async () => ++loads);
    // Kept once two reads in a row give the same load.
    let kept = await readIt();
    await eventually(async () => {
      const previous = kept;
      kept = await readIt();
      return kept === previous;
    });
    await buyOne(cookie, id, 6);
    expect(await readIt()).toBeGreaterThan(kept);
  });

  it('a read that begins after a sale never shares a load that began before it', async () => {
    const { id } = await newCachedCopy('8.00');
    const { cookie } = await t.newClient();
    let release = () => {};
    const before = t.app.catalogCache.read(
      'a load held open',
      () => new Promise<{ id: number; quantity: number }>((done) => (release = () => done({ id, quantity: 5 }))),
      { stock: 'shown' },
    );
    await buyOne(cookie, id, 8);
    const after = t.app.catalogCache.read('a load held open', async () => ({ id, quantity: 4 }), { stock: 'shown' });
    release();
    expect((await before).quantity).toBe(5);
    expect((await after).quantity).toBe(4);
  });

  it('a checkout that sells a copy out forgets every answer: it leaves the in-stock filters and Recommended', async () => {
    const { id, url } = await newCachedCopy('7.00');
    // One left (set by hand, which announces nothing): the next sale sells it out.
    await t.db.query('UPDATE book_copies SET quantity = 1 WHERE id = $1', [id]);
    await answeredFromCache('/api/public/book-copy/types/');
    const { cookie } = await t.newClient();
    await buyOne(cookie, id, 7);
    expect((await read('/api/public/book-copy/types/')).statements).toBe(1);
    expect((await read(url)).data.quantity).toBe(0);
  });

  it('keeps answers only up to its bound in bytes, dropping the oldest first', async () => {
    const loads = new Map<string, number>();
    /** An answer whose JSON is just under a quarter of the bound: four fit, five do not. */
    const quarter = (key: string) =>
      t.app.catalogCache.read(key, async () => {
        loads.set(key, (loads.get(key) ?? 0) + 1);
        return 'x'.repeat(CATALOG_CACHE_JSON_BYTES / 4 - 16);
      });
    /** Whether a second read of `key` was answered from the cache. */
    const kept = async (key: string) => {
      const before = loads.get(key);
      await quarter(key);
      return loads.get(key) === before;
    };
    // Fresh keys each attempt: a notice from another test's writes, forgetting everything, only makes one attempt fail.
    let attempt = 0;
    await eventually(async () => {
      const key = (n: number) => `large ${attempt} ${n}`;
      attempt++;
      for (const n of [1, 2, 3, 4]) await quarter(key(n));
      for (const n of [1, 2, 3, 4]) if (!(await kept(key(n)))) return false;
      // The fifth is over the bound: the oldest (the first stored; reading it again does not renew it) goes.
      await quarter(key(5));
      return (await kept(key(2))) && (await kept(key(5))) && !(await kept(key(1)));
    });
  });

  it('forgets the home lists when their projection is refreshed', async () => {
    const url = '/api/public/book-copy/new-releases/';
    await answeredFromCache(url);
    await t.app.catalogProjections.refresh(['home_list_candidates']);
    await eventually(async () => (await read(url)).statements === 1);
  });

  it('reads the database while it cannot hear the notices, and keeps answers again once it hears them', async () => {
    const url = '/api/public/book-copy/types/';
    await answeredFromCache(url);
    await t.db.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE application_name = 'bookshop-api-catalog-listener' AND datname = current_database()`,
    );
    await eventually(() => !t.app.catalogCache.active);
    // Read at once: the listener's first attempt to come back waits a quarter of a second.
    expect((await read(url)).statements).toBe(1);
    await eventually(() => t.app.catalogCache.active);
    await answeredFromCache(url);
  });

  it("shows an Admin's own change on the very next read of the same instance", async () => {
    const id = await newCopy('20.00');
    const url = `/api/public/book-copy/by-id/${id}`;
    await eventually(async () => (await read(url)).data?.price === 20);
    const copy = (await t.app.inject({ url: `/api/employee/book-copy/by-id/${id}`, headers: { cookie: admin } })).json().data;
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/employee/book-copy/',
      headers: { cookie: admin },
      payload: { ...copy, price: 21.25 },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await read(url)).data.price).toBe(21.25);
  });
});

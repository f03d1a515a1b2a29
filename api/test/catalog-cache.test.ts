// The catalog cache: a repeated public catalog read costs no database work, and any change to the
// catalog, made by this instance, another one or by hand in the database, is seen at once, not when
// the cache's lifetime ends (set here to a minute, so a test that waited for it would time out).
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { RECOMMENDED_SQL } from '../src/modules/catalog/catalog-queries.ts';
import { createTestApp, DEMO } from './helpers.ts';

let statements = 0;
let recommendedRuns = 0;
const t = await createTestApp({
  env: { CATALOG_CACHE_MS: '60000' },
  onQuery: (sql) => {
    statements++;
    if (sql === RECOMMENDED_SQL) recommendedRuns++;
  },
});
const admin = await t.login(DEMO.admin);

/** Polls until `check` holds, for at most two seconds: a notice takes milliseconds, the lifetime a minute. */
async function eventually(check: () => Promise<boolean> | boolean) {
  for (let waited = 0; waited < 2_000; waited += 20) {
    if (await check()) return;
    await sleep(20);
  }
  throw new Error('not within 2 s');
}

/**
 * Reads `url` until a read runs no statement: the answer was kept. (A notice from elsewhere, such as a
 * projection refresh another test's write set off, may clear it once in between.)
 */
const answeredFromCache = (url: string) => eventually(async () => (await read(url)).statements === 0);

/** Statements a GET ran, and its answer. */
async function read(url: string, cookie = '') {
  statements = 0;
  const res = await t.app.inject({ url, headers: { cookie } });
  return { statements, status: res.statusCode, body: res.body, data: res.statusCode === 200 ? res.json().data : null };
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

import { randomUUID } from 'node:crypto';
import { ORDER_LINES_MAX } from '@bookshop/rules';
import pg from 'pg';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { brokenConstraint } from '../src/lib/database-errors.ts';
import { cartRepository } from '../src/modules/cart/cart-repository.ts';
import { cartService } from '../src/modules/cart/cart-service.ts';
import { ORDER_BY_IDEMPOTENCY_KEY_SQL } from '../src/modules/orders/order-queries.ts';
import { FAMILY_WITH_ACTIVITY_SQL } from '../src/modules/sessions/session-repository.ts';
import { createTestApp, DEMO, statementRecorder, type TestApp, untilStatementsWaitOnLocks, untilTheApiIsIdle } from './helpers.ts';

let t: TestApp;
let clientCookie: string;
const statements = statementRecorder();
beforeAll(async () => {
  t = await createTestApp({ onQuery: statements.onQuery });
  clientCookie = await t.login(DEMO.client);
});

/** A fresh client's session cookie. */
const newClient = async () => (await t.newClient()).cookie;
async function newCopy(quantity: number, price = '10.50') {
  const [row] = await t.db.query<{ id: number }>('INSERT INTO book_copies (book_id, quantity, price) VALUES (1, $1, $2) RETURNING id', [
    quantity,
    price,
  ]);
  return row!.id;
}
const call = (
  cookie: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
  headers: Record<string, string> = {},
) => t.app.inject({ method, url, headers: { cookie, ...headers }, payload });
const cart = async (cookie: string) =>
  (await call(cookie, 'GET', '/api/client/cart')).json().data as {
    id: number;
    productId: number;
    totalQuantity: number;
    totalPrice: number;
    bookCopyQuantity: number;
    isAvailable: boolean;
  }[];
const stock = async (id: number) =>
  (await t.db.query<{ quantity: number }>('SELECT quantity FROM book_copies WHERE id = $1', [id]))[0]!.quantity;

describe('cart', () => {
  it('refuses anyone but a signed-in client', async () => {
    expect((await call('', 'GET', '/api/client/cart')).statusCode).toBe(401);
    const seller = await t.login(DEMO.seller);
    expect((await call(seller, 'GET', '/api/client/cart')).statusCode).toBe(401);
  });

  it('adds a line at 1, then +1, up to the stock; then "product is out of stock."', async () => {
    const cookie = await newClient();
    const copy = await newCopy(2);
    const first = await call(cookie, 'POST', `/api/client/cart/${copy}`);
    expect(first.statusCode).toBe(200);
    const lineId = first.json().data;
    expect((await call(cookie, 'POST', `/api/client/cart/${copy}`)).json().data).toBe(lineId);
    const third = await call(cookie, 'POST', `/api/client/cart/${copy}`);
    expect(third.statusCode).toBe(409);
    expect(third.json().error.message).toBe('product is out of stock.');
    expect(await cart(cookie)).toEqual([
      expect.objectContaining({
        id: lineId,
        productId: copy,
        totalQuantity: 2,
        totalPrice: 10.5,
        bookCopyQuantity: 2,
        name: expect.any(String),
      }),
    ]);
  });

  it('refuses an unknown or unavailable copy with a message', async () => {
    const cookie = await newClient();
    expect((await call(cookie, 'POST', '/api/client/cart/99999999')).statusCode).toBe(404);
    const copy = await newCopy(5);
    await t.db.query('UPDATE book_copies SET is_available = false WHERE id = $1', [copy]);
    const res = await call(cookie, 'POST', `/api/client/cart/${copy}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe('This book is not available.');
  });

  it('sets a quantity within 1..stock and removes a line', async () => {
    const cookie = await newClient();
    const copy = await newCopy(3);
    const lineId = (await call(cookie, 'POST', `/api/client/cart/${copy}`)).json().data;
    expect((await call(cookie, 'PUT', '/api/client/cart/', { quantity: 3, cartItemId: lineId })).statusCode).toBe(200);
    expect((await call(cookie, 'PUT', '/api/client/cart/', { quantity: 4, cartItemId: lineId })).statusCode).toBe(409);
    expect((await call(cookie, 'PUT', '/api/client/cart/', { quantity: 0, cartItemId: lineId })).statusCode).toBe(400);
    expect((await cart(cookie))[0]!.totalQuantity).toBe(3);
    expect((await call(cookie, 'DELETE', `/api/client/cart/${lineId}`)).statusCode).toBe(200);
    expect(await cart(cookie)).toEqual([]);
  });

  it('when the stock falls below a line, the line can still come down (to 1), but not go up', async () => {
    const cookie = await newClient();
    const copy = await newCopy(5);
    const lineId = (await call(cookie, 'POST', `/api/client/cart/${copy}`)).json().data;
    expect((await call(cookie, 'PUT', '/api/client/cart/', { quantity: 5, cartItemId: lineId })).statusCode).toBe(200);
    await t.db.query('UPDATE book_copies SET quantity = 2 WHERE id = $1', [copy]);
    const line = (await cart(cookie))[0]!;
    expect(line).toMatchObject({ totalQuantity: 5, bookCopyQuantity: 2 });
    expect((await call(cookie, 'PUT', '/api/client/cart/', { quantity: 4, cartItemId: lineId })).statusCode).toBe(200);
    const up = await call(cookie, 'PUT', '/api/client/cart/', { quantity: 5, cartItemId: lineId });
    expect(up.statusCode).toBe(409);
    expect(up.json().error.message).toBe('Only 2 left in stock.');
    expect((await call(cookie, 'PUT', '/api/client/cart/', { quantity: 1, cartItemId: lineId })).statusCode).toBe(200);
  });

  it('a copy withdrawn while in the cart is listed as unavailable; checkout names it and the rest can be ordered', async () => {
    const cookie = await newClient();
    const [kept, withdrawn] = [await newCopy(5), await newCopy(5)];
    const keptLine = (await call(cookie, 'POST', `/api/client/cart/${kept}`)).json().data;
    const withdrawnLine = (await call(cookie, 'POST', `/api/client/cart/${withdrawn}`)).json().data;
    await t.db.query('UPDATE book_copies SET is_available = false WHERE id = $1', [withdrawn]);
    const lines = await cart(cookie);
    expect(lines.find((l) => l.id === withdrawnLine)).toMatchObject({ isAvailable: false });
    expect(lines.find((l) => l.id === keptLine)).toMatchObject({ isAvailable: true });

    const order = { shipmentAddress: '1 Main Street', totalPrice: 21, totalQuantity: 2, cartItemsIds: [keptLine, withdrawnLine] };
    const refused = await call(cookie, 'POST', '/api/client/orders/', order);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({ code: 'UNAVAILABLE', details: { bookCopyId: withdrawn } });
    expect(refused.json().error.message).toMatch(/is no longer available: remove it from your cart/);
    expect(await stock(kept)).toBe(5);

    const placed = await call(cookie, 'POST', '/api/client/orders/', {
      ...order,
      totalPrice: 10.5,
      totalQuantity: 1,
      cartItemsIds: [keptLine],
    });
    expect(placed.statusCode, placed.body).toBe(200);
    expect((await call(cookie, 'DELETE', `/api/client/cart/${withdrawnLine}`)).statusCode).toBe(200);
    expect(await cart(cookie)).toEqual([]);
  });

  it("treats another client's line as non-existent (404)", async () => {
    const owner = await newClient();
    const intruder = await newClient();
    const copy = await newCopy(5);
    const lineId = (await call(owner, 'POST', `/api/client/cart/${copy}`)).json().data;
    expect((await call(intruder, 'PUT', '/api/client/cart/', { quantity: 2, cartItemId: lineId })).statusCode).toBe(404);
    expect((await call(intruder, 'DELETE', `/api/client/cart/${lineId}`)).statusCode).toBe(404);
    const order = await t.checkout(intruder, { totalPrice: 10.5, totalQuantity: 1, cartItemsIds: [lineId] });
    expect(order.statusCode).toBe(404);
    expect((await cart(owner))[0]!.totalQuantity).toBe(1);
  });

  it('a line taken between its read and its change (a checkout in another tab) is not in the cart: 404, nothing set', async () => {
    const owner = await t.newClient();
    const copy = await newCopy(5);
    const lineId = (await call(owner.cookie, 'POST', `/api/client/cart/${copy}`)).json().data as number;
    const repo = cartRepository(t.app.prisma, t.app.primarySql);
    // The line as it was read, just before the other tab's checkout removed it.
    const readBefore = await repo.findLine(owner.id, lineId);
    expect(readBefore).not.toBeNull();
    await t.db.query('DELETE FROM cart_items WHERE id = $1', [lineId]);
    const service = cartService({ ...repo, findLine: async () => readBefore });
    await expect(service.update(owner.id, lineId, 2)).rejects.toMatchObject({ statusCode: 404, message: 'This item is not in your cart.' });
  });
});

describe('adds that change nothing', () => {
  it("take no id from the cart lines' sequence, and two first adds at once make one line of two", async () => {
    const cookie = await newClient();
    const copy = await newCopy(1);
    expect((await call(cookie, 'POST', `/api/client/cart/${copy}`)).statusCode).toBe(200);
    const lastId = async () =>
      Number((await t.db.query<{ n: string }>("SELECT last_value AS n FROM pg_sequences WHERE sequencename = 'cart_items_id_seq'"))[0]!.n);
    const before = await lastId();
    // At the copy's stock: refused, ten times.
    for (let i = 0; i < 10; i++) expect((await call(cookie, 'POST', `/api/client/cart/${copy}`)).statusCode).toBe(409);
    expect(await lastId()).toBe(before);

    const twice = await newCopy(5);
    const [first, second] = await Promise.all([0, 1].map(() => call(cookie, 'POST', `/api/client/cart/${twice}`)));
    expect([first!.statusCode, second!.statusCode]).toEqual([200, 200]);
    expect((await cart(cookie)).find((line) => line.productId === twice)?.totalQuantity).toBe(2);
  });
});

describe('a copy deleted while it is added to a cart', () => {
  it('answers 409 with a reason, not a 500: the add waited for the delete and its copy is gone', async () => {
    const cookie = await newClient();
    const copy = await newCopy(3);
    const deleting = new pg.Client({ connectionString: t.db.url });
    await deleting.connect();
    try {
      await deleting.query('BEGIN');
      await deleting.query('DELETE FROM book_copies WHERE id = $1', [copy]);
      // The add reads the copy as it was, then its line's reference to it waits for the delete.
      const adding = call(cookie, 'POST', `/api/client/cart/${copy}`);
      await untilStatementsWaitOnLocks(t.db, 1);
      await deleting.query('COMMIT');
      const added = await adding;
      expect(added.statusCode, added.body).toBe(409);
      expect(added.json().error.message).toBe('Something this refers to is gone. Please reload and try again.');
      expect(added.body).not.toMatch(/foreign key|cart_items|violates/i);
    } finally {
      await deleting.end();
    }
  });
});

describe('a write a rule of the schema refused', () => {
  it('is named the same whichever way it reached the database (plain SQL or Prisma): a reference to a row gone, or a row still referenced', async () => {
    const refusal = async (write: () => Promise<unknown>) => write().then(() => 'written', brokenConstraint);
    const [client] = await t.db.query<{ id: number }>('SELECT id FROM clients LIMIT 1');
    const [ordered] = await t.db.query<{ id: number }>('SELECT book_copy_id AS id FROM order_items LIMIT 1');
    const addGone = 'INSERT INTO cart_items (client_id, book_copy_id, quantity) VALUES ($1, 2147483000, 1)';
    expect(await refusal(() => t.app.primarySql.query(addGone, [client!.id]))).toBe('missing');
    expect(await refusal(() => t.app.prisma.$executeRawUnsafe(addGone, client!.id))).toBe('missing');
    const deleteOrdered = 'DELETE FROM book_copies WHERE id = $1';
    expect(await refusal(() => t.app.primarySql.query(deleteOrdered, [ordered!.id]))).toBe('referenced');
    expect(await refusal(() => t.app.prisma.$executeRawUnsafe(deleteOrdered, ordered!.id))).toBe('referenced');
  });
});

describe('a full cart', () => {
  it(`holds an order's most lines (${ORDER_LINES_MAX}): one more book is refused and says why; its lines still go up`, async () => {
    const owner = await t.newClient();
    const copies = await t.db.query<{ id: number }>(
      `INSERT INTO book_copies (book_id, quantity, price) SELECT 1, 5, '1.00' FROM generate_series(1, ${ORDER_LINES_MAX + 1}) RETURNING id`,
    );
    // The cart filled from outside, one line short of full; then its last line through the API.
    await t.db.query('INSERT INTO cart_items (client_id, book_copy_id, quantity) SELECT $1, unnest($2::int[]), 1', [
      owner.id,
      copies.slice(0, ORDER_LINES_MAX - 1).map((c) => c.id),
    ]);
    expect((await call(owner.cookie, 'POST', `/api/client/cart/${copies[ORDER_LINES_MAX - 1]!.id}`)).statusCode).toBe(200);
    const refused = await call(owner.cookie, 'POST', `/api/client/cart/${copies[ORDER_LINES_MAX]!.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({
      code: 'CART_FULL',
      message: `Your cart holds ${ORDER_LINES_MAX} different books, the most one order takes. Check out or remove one first.`,
    });
    // A book already in the full cart still goes up by one.
    expect((await call(owner.cookie, 'POST', `/api/client/cart/${copies[0]!.id}`)).statusCode).toBe(200);
    const lines = async () =>
      (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM cart_items WHERE client_id = $1', [owner.id]))[0]!.n;
    expect(await lines()).toBe(ORDER_LINES_MAX);
  });
});

describe('checkout', () => {
  async function fill(cookie: string, copies: number[]) {
    const ids: number[] = [];
    for (const copy of copies) ids.push((await call(cookie, 'POST', `/api/client/cart/${copy}`)).json().data);
    return ids;
  }

  it('places an order: stock taken, lines removed, totals computed on the server, newest first in My Orders', async () => {
    const cookie = await newClient();
    const a = await newCopy(5, '10.10');
    const b = await newCopy(5, '0.20');
    const ids = await fill(cookie, [a, b, b]);
    const res = await t.checkout(cookie, {
      shipmentAddress: '  12 Rue Larbi Ben Mhidi  ',
      totalPrice: 10.5,
      totalQuantity: 3,
      cartItemsIds: [...new Set(ids)],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      status: 'pending',
      totalQuantity: 3,
      totalPrice: 10.5,
      shipmentAddress: '12 Rue Larbi Ben Mhidi',
    });
    expect(await stock(a)).toBe(4);
    expect(await stock(b)).toBe(3);
    expect(await cart(cookie)).toEqual([]);
    const list = (await call(cookie, 'GET', '/api/client/orders/1,5')).json().data;
    expect(list.totalPages).toBe(1);
    expect(list.orders[0].id).toBe(res.json().data.id);
  });

  it("refuses a short or long address with the screen's message, and stale totals with 409 and the current totals", async () => {
    const cookie = await newClient();
    const ids = await fill(cookie, [await newCopy(5, '3.33')]);
    const short = await t.checkout(cookie, { shipmentAddress: '  abc  ', totalPrice: 3.33, totalQuantity: 1, cartItemsIds: ids });
    expect(short.statusCode).toBe(400);
    expect(short.json().error.message).toBe('Please enter a valid shipping address.');
    // A long one gets the screen's words too, not a schema message naming the field.
    const long = await t.checkout(cookie, { shipmentAddress: 'a'.repeat(501), totalPrice: 3.33, totalQuantity: 1, cartItemsIds: ids });
    expect(long.statusCode).toBe(400);
    expect(long.json().error.message).toBe('Please keep the shipping address to 500 characters or less.');
    const stale = await t.checkout(cookie, { totalPrice: 3.0, totalQuantity: 1, cartItemsIds: ids });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.details).toEqual({ totalPrice: 3.33, totalQuantity: 1 });
    expect((await cart(cookie)).length).toBe(1);
  });

  it("a client's second checkout while the first still waits is queued in the instance, holding no connection, and runs after it", async () => {
    // A lock waited for longer than the test takes: the first is still waiting when the others come.
    const slow = await createTestApp({ env: { DATABASE_LOCK_TIMEOUT_MS: '8000' } });
    const { cookie } = await slow.newClient();
    const [{ id: copy }] = (await slow.db.query<{ id: number }>(
      "INSERT INTO book_copies (book_id, quantity, price) VALUES (1, 5, '4.00') RETURNING id",
    )) as [{ id: number }];
    const order = { totalPrice: 4, totalQuantity: 1, cartItemsIds: [await slow.addToCart(cookie, copy)] };
    const holder = new pg.Client({ connectionString: slow.db.url });
    await holder.connect();
    const waiting = async () =>
      (
        await holder.query(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
        )
      ).rows[0].n;
    try {
      // A restock holding the copy: the first checkout waits on it.
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM book_copies WHERE id = $1 FOR UPDATE', [copy]);
      const first = slow.checkout(cookie, order);
      await untilStatementsWaitOnLocks(slow.db, 1);
      // Three more at once: the queue takes two of them (the first runs), and the one past it, whichever
      // reaches its handler last, is refused at once.
      const later = [1, 2, 3].map(() => slow.checkout(cookie, order));
      const refused = await Promise.race(later);
      expect(refused.statusCode, refused.body).toBe(429);
      expect(refused.json().error.message).toBe(
        'Your earlier checkouts are still being processed. Please wait a moment, then look at your orders.',
      );
      // Time for the others to reach their statements, were they not queued: they would wait on the first's cart lines.
      await new Promise((r) => setTimeout(r, 500));
      expect(await waiting()).toBe(1);
      await holder.query('ROLLBACK');
      expect((await first).statusCode).toBe(200);
      // Then the queued ones run: their lines are the first's order now.
      expect((await Promise.all(later)).map((res) => res.statusCode).sort()).toEqual([404, 404, 429]);
    } finally {
      await holder.end();
      await slow.app.close();
    }
  });

  it('a queued checkout whose time budget ends while it waits is answered 503 and orders nothing, though the lock goes after', async () => {
    // A budget of 3 s: a checkout queued 2.8 s behind another (its lock's wait) has no time left to get past the same lock.
    const short = await createTestApp({
      env: { REQUEST_TIMEOUT_MS: '3000', DATABASE_CONNECT_TIMEOUT_MS: '1000', DATABASE_LOCK_TIMEOUT_MS: '2800' },
    });
    try {
      const { id: clientId, cookie } = await short.newClient();
      const [{ id: copy }] = (await short.db.query<{ id: number }>(
        "INSERT INTO book_copies (book_id, quantity, price) VALUES (1, 5, '4.00') RETURNING id",
      )) as [{ id: number }];
      const line = await short.addToCart(cookie, copy);
      const order = { totalPrice: 4, totalQuantity: 1, cartItemsIds: [line] };
      const holder = new pg.Client({ connectionString: short.db.url });
      await holder.connect();
      try {
        await holder.query('BEGIN');
        await holder.query('SELECT 1 FROM book_copies WHERE id = $1 FOR UPDATE', [copy]);
        // The first waits on the lock until lock_timeout (2.8 s), the second behind it.
        const first = short.checkout(cookie, order);
        await untilStatementsWaitOnLocks(short.db, 1);
        const second = short.checkout(cookie, order);
        expect((await first).statusCode).toBe(503);
        const late = await second;
        expect(late.statusCode).toBe(503);
        expect(late.json().error.code).toBe('TIMEOUT');
        await holder.query('ROLLBACK');
        // Nothing of it took effect after its answer, once it has ended: no order, the line still in the cart.
        await untilTheApiIsIdle(short.db);
        expect(await short.db.query('SELECT 1 FROM orders WHERE client_id = $1', [clientId])).toHaveLength(0);
        expect(await short.db.query('SELECT 1 FROM cart_items WHERE id = $1', [line])).toHaveLength(1);
      } finally {
        await holder.end();
      }
    } finally {
      await short.app.close();
    }
  });

  it('K in stock, N >> K clients checking out at once: exactly K sold, stock 0, every loser a clean 409', async () => {
    const K = 3;
    const N = 16;
    const copy = await newCopy(K);
    const buyers = await Promise.all(Array.from({ length: N }, () => newClient()));
    const lines = await Promise.all(buyers.map(async (cookie) => (await fill(cookie, [copy]))[0]!));
    const results = await Promise.all(
      buyers.map((cookie, i) => t.checkout(cookie, { totalPrice: 10.5, totalQuantity: 1, cartItemsIds: [lines[i]!] })),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(K);
    expect(codes.filter((c) => c === 409)).toHaveLength(N - K);
    for (const r of results.filter((r) => r.statusCode === 409)) expect(r.json().error.message).toMatch(/out of stock/);
    expect(await stock(copy)).toBe(0);
    const [sold] = await t.db.query<{ n: string }>('SELECT coalesce(sum(quantity), 0) AS n FROM order_items WHERE book_copy_id = $1', [
      copy,
    ]);
    expect(Number(sold!.n)).toBe(K);
  });

  it('one cart checked out ten times at once gives exactly one order', async () => {
    const cookie = await newClient();
    const ids = await fill(cookie, [await newCopy(50)]);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => t.checkout(cookie, { totalPrice: 10.5, totalQuantity: 1, cartItemsIds: ids })),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    for (const r of results.filter((r) => r.statusCode !== 200)) expect(r.statusCode).toBeLessThan(500);
    expect((await call(cookie, 'GET', '/api/client/orders/1,5')).json().data.orders).toHaveLength(1);
  });

  it('the same Idempotency-Key twice gives one order and the same answer', async () => {
    const cookie = await newClient();
    const ids = await fill(cookie, [await newCopy(50)]);
    const key = randomUUID();
    const body = { shipmentAddress: '1 Main Street', totalPrice: 10.5, totalQuantity: 1, cartItemsIds: ids };
    const [a, b] = await Promise.all([
      call(cookie, 'POST', '/api/client/orders/', body, { 'idempotency-key': key }),
      call(cookie, 'POST', '/api/client/orders/', body, { 'idempotency-key': key }),
    ]);
    const c = await call(cookie, 'POST', '/api/client/orders/', body, { 'idempotency-key': key });
    expect([a.statusCode, b.statusCode, c.statusCode]).toEqual([200, 200, 200]);
    expect(b.json()).toEqual(a.json());
    expect(c.json()).toEqual(a.json());
    expect((await call(cookie, 'GET', '/api/client/orders/1,5')).json().data.orders).toHaveLength(1);
  });

  /** One book checked out with a fresh Idempotency-Key: the body, the key and the first answer, for a retry. */
  async function orderedWithKey(cookie: string) {
    const body = {
      shipmentAddress: '1 Main Street',
      totalPrice: 10.5,
      totalQuantity: 1,
      cartItemsIds: await fill(cookie, [await newCopy(5)]),
    };
    const key = randomUUID();
    const first = await call(cookie, 'POST', '/api/client/orders/', body, { 'idempotency-key': key });
    expect(first.statusCode).toBe(200);
    return { body, key, first };
  }

  it("reads the key's earlier order while the session is still being checked, and answers with it once the session holds", async () => {
    const { id: clientId, cookie } = await t.newClient();
    const { body, key, first } = await orderedWithKey(cookie);

    // The session's check marks activity at most once a minute: made due, then held on the row's lock.
    await t.db.query("UPDATE session_families SET last_active_at = last_active_at - interval '2 minutes' WHERE subject_id = $1", [
      clientId,
    ]);
    const holder = new pg.Client({ connectionString: t.db.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query("SELECT 1 FROM session_families WHERE subject_id = $1 AND audience = 'client' FOR UPDATE", [clientId]);
      await statements.during(async (sent) => {
        const retry = call(cookie, 'POST', '/api/client/orders/', body, { 'idempotency-key': key });
        await vi.waitFor(() => expect(sent).toContain(ORDER_BY_IDEMPOTENCY_KEY_SQL));
        expect(sent).toContain(FAMILY_WITH_ACTIVITY_SQL);
        const waiting = await holder.query(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
        );
        expect(waiting.rows[0].n).toBe(1); // the session's check, still waiting when the key's read is done
        await holder.query('ROLLBACK');
        const answered = await retry;
        expect(answered.statusCode).toBe(200);
        expect(answered.json()).toEqual(first.json());
      });
    } finally {
      await holder.end();
    }
  });

  it("answers 401 and nothing of the key's earlier order to a session signed out since, cross-site or not, and a malformed retry leaves no unhandled failure", async () => {
    const { cookie } = await t.newClient();
    const { body, key, first } = await orderedWithKey(cookie);
    expect((await call(cookie, 'DELETE', '/api/public/authentication/cookies/')).json().data).toBe(true);

    const retry = await call(cookie, 'POST', '/api/client/orders/', body, { 'idempotency-key': key });
    expect(retry.statusCode).toBe(401);
    expect(retry.json().data).toBeNull();
    expect(retry.body).not.toContain(first.json().data.createdAt);
    // Cross-site, it is still a 401 first, as on every client route, and no refusal is recorded for it.
    const refusalsBefore = await t.db.query("SELECT count(*)::int AS n FROM security_events WHERE type = 'csrf_refused'");
    const crossSite = await call(cookie, 'POST', '/api/client/orders/', body, { 'idempotency-key': key, origin: 'https://evil.example' });
    expect(crossSite.statusCode).toBe(401);
    expect(await t.db.query("SELECT count(*)::int AS n FROM security_events WHERE type = 'csrf_refused'")).toEqual(refusalsBefore);
    // A body that cannot be parsed is refused while the session's check still runs: that check's refusal is never awaited.
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/api/client/orders/',
      headers: { cookie, 'content-type': 'application/json', 'idempotency-key': key },
      payload: '{"shipmentAddress":',
    });
    expect(malformed.statusCode).toBe(400);
  });

  it('two carts crossing the same two books in opposite order never deadlock', async () => {
    for (let round = 0; round < 5; round++) {
      const x = await newCopy(10);
      const y = await newCopy(10);
      const first = await newClient();
      const second = await newClient();
      const a = await fill(first, [x, y]);
      const b = await fill(second, [y, x]);
      const results = await Promise.all([
        t.checkout(first, { totalPrice: 21, totalQuantity: 2, cartItemsIds: a }),
        t.checkout(second, { totalPrice: 21, totalQuantity: 2, cartItemsIds: b }),
      ]);
      expect(results.map((r) => r.statusCode)).toEqual([200, 200]);
      expect(await stock(x)).toBe(8);
    }
  });

  it("leaves nothing half-written when one line runs out, names it, and spends none of the orders' ids however often it is tried", async () => {
    const cookie = await newClient();
    const plenty = await newCopy(10);
    const scarce = await newCopy(1);
    const ids = await fill(cookie, [plenty, scarce]);
    await t.db.query('UPDATE book_copies SET quantity = 0 WHERE id = $1', [scarce]);
    const orderIds = async () => (await t.db.query<{ last_value: string }>('SELECT last_value FROM orders_id_seq'))[0]!.last_value;
    const before = await orderIds();
    for (let attempt = 0; attempt < 3; attempt++) {
      const res = await t.checkout(cookie, { totalPrice: 21, totalQuantity: 2, cartItemsIds: ids });
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toMatchObject({ code: 'OUT_OF_STOCK', details: { bookCopyId: scarce } });
    }
    expect(await orderIds()).toBe(before);
    expect(await stock(plenty)).toBe(10);
    expect((await cart(cookie)).length).toBe(2);
  });

  it("pages only the client's own orders", async () => {
    const res = await call(clientCookie, 'GET', '/api/client/orders/1,5');
    const own = await t.db.query<{ id: number }>(
      "SELECT o.id FROM orders o JOIN clients c ON c.id = o.client_id WHERE c.account = 'client@bookshop.test' ORDER BY o.created_at DESC, o.id DESC",
    );
    expect(own.length).toBeGreaterThan(5); // the demo client has more than a page: the paging is exercised
    expect(res.json().data.totalPages).toBe(Math.ceil(own.length / 5));
    // Row by row: the newest five of this client's orders, and nobody else's.
    expect(res.json().data.orders.map((o: { id: number }) => o.id)).toEqual(own.slice(0, 5).map((o) => o.id));
    expect((await call(clientCookie, 'GET', '/api/client/orders/0,5')).statusCode).toBe(400);
  });
});

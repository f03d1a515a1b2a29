// An order a client can cancel (beyond the spec): the client's own pending or Processing order, or
// staff's any unshipped one with a reason; the stock goes back in the same transaction as a
// 'cancellation' movement, the status e-mail waits in the outbox, and cancels racing checkouts on
// the same copies leave every copy's stock what its orders and its ledger say; a cancel or a checkout
// that is a deadlock's victim (the day's counts taken in another order) runs again. Also the client's
// e-mail choices.
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { CANCELS_PER_CLIENT_PER_DAY } from '../src/routes/client/orders.ts';
import { createTestApp, DEMO, untilARowIsAwaited } from './helpers.ts';

// Room for the forced deadlock's wait on a busy machine: its victim waits a second to be told (deadlock_timeout).
const t = await createTestApp({ env: { DATABASE_LOCK_TIMEOUT_MS: '10000' } });
const seller = await t.login(DEMO.seller);
const admin = await t.login(DEMO.admin);

type Method = 'GET' | 'POST' | 'PUT';
const call = (method: Method, url: string, cookie: string, payload?: object) => t.app.inject({ method, url, headers: { cookie }, payload });

/** A copy of the test's own, at 10.00 each. */
async function newCopy(quantity: number) {
  const [row] = await t.db.query<{ id: number }>(
    "INSERT INTO book_copies (book_id, quantity, price) VALUES (1, $1, '10.00') RETURNING id",
    [quantity],
  );
  return row!.id;
}

/** Puts `lines` (copy id → units) in the client's cart; answers the cart line ids and the totals to check out. */
async function fillCart(cookie: string, lines: [copyId: number, units: number][]) {
  const cartItemsIds: number[] = [];
  for (const [copyId, units] of lines) {
    const added = await call('POST', `/api/client/cart/${copyId}`, cookie);
    expect(added.statusCode, added.body).toBe(200);
    const line = added.json().data as number;
    if (units > 1) expect((await call('PUT', '/api/client/cart/', cookie, { cartItemId: line, quantity: units })).statusCode).toBe(200);
    cartItemsIds.push(line);
  }
  const totalQuantity = lines.reduce((sum, [, units]) => sum + units, 0);
  return { cartItemsIds, totalQuantity, totalPrice: totalQuantity * 10 };
}

/** The client orders `lines`; answers the order's id. */
async function order(cookie: string, lines: [copyId: number, units: number][]) {
  const res = await t.checkout(cookie, await fillCart(cookie, lines));
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.id as number;
}

/** A statement of the other transaction's, with its values. */
type Held = [sql: string, values: unknown[]];

/**
 * Runs `request` into a deadlock with another transaction: that one holds `first`'s row; the request
 * takes a row of its own and waits for it; then the other wants the request's row (`then`). The
 * request waited first, so its deadlock check runs first and it is the victim. Answers its response.
 */
async function deadlockedAgainst<T>(first: Held, then: Held, request: () => Promise<T>): Promise<T> {
  const other = new pg.Client({ connectionString: t.db.url });
  await other.connect();
  try {
    await other.query('BEGIN');
    await other.query(...first);
    const answered = request();
    await untilARowIsAwaited(t.db);
    await other.query(...then);
    await other.query('COMMIT');
    return await answered;
  } finally {
    await other.end();
  }
}

/** A new client's order of `units` of a new copy of 5, which staff marked Shipped, then Processing again. */
async function shippedThenSetBack(units: number) {
  const client = await t.newClient();
  const copy = await newCopy(5);
  const orderId = await order(client.cookie, [[copy, units]]);
  for (const status of ['Shipped', 'Processing']) {
    expect((await call('PUT', `/api/employee/order/set-status/${orderId},${status}`, seller)).statusCode).toBe(200);
  }
  return { client, copy, orderId };
}

const cancelAsClient = (cookie: string, orderId: number) => call('POST', `/api/client/orders/${orderId}/cancel`, cookie);
const cancelAsStaff = (cookie: string, orderId: number, reason: string) =>
  call('POST', `/api/employee/order/${orderId}/cancel`, cookie, { reason });

const copyRow = async (id: number) =>
  (await t.db.query<{ quantity: number; units_sold: number }>('SELECT quantity, units_sold FROM book_copies WHERE id = $1', [id]))[0]!;
const movements = (copyId: number) =>
  t.db.query<{ change: number; reason: string; actor: string | null; reference: string | null }>(
    'SELECT change, reason, actor, reference FROM stock_movements WHERE copy_id = $1 ORDER BY id',
    [copyId],
  );
const statusMails = (orderId: number) =>
  t.db.query<{ client_id: number; payload: { status: string; reason: string | null } }>(
    "SELECT client_id, payload FROM mail_outbox WHERE kind = 'order_status' AND order_id = $1 ORDER BY id",
    [orderId],
  );

describe('a client cancels their own order', () => {
  it('a pending order: cancelled, its stock back as a cancellation movement, the status e-mail in the outbox', async () => {
    const client = await t.newClient();
    const [a, b] = [await newCopy(10), await newCopy(10)];
    const orderId = await order(client.cookie, [
      [a, 3],
      [b, 1],
    ]);
    expect(await copyRow(a)).toEqual({ quantity: 7, units_sold: 3 });
    const before = (await call('GET', '/api/client/orders/1,5', client.cookie)).json().data.orders;
    expect(before[0]).toMatchObject({ id: orderId, status: 'pending', cancellable: true });

    const res = await cancelAsClient(client.cookie, orderId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ id: orderId, status: 'cancelled', totalQuantity: 4, totalPrice: 40, cancellable: false });
    expect(await copyRow(a)).toEqual({ quantity: 10, units_sold: 0 });
    expect(await copyRow(b)).toEqual({ quantity: 10, units_sold: 0 });
    // The sale and its cancellation both name the order: the copy's stock is explained row by row.
    expect((await movements(a)).slice(-2)).toEqual([
      { change: -3, reason: 'sale', actor: null, reference: `order:${orderId}` },
      { change: 3, reason: 'cancellation', actor: null, reference: `order:${orderId}` },
    ]);
    expect((await movements(b)).at(-2)).toEqual({ change: -1, reason: 'sale', actor: null, reference: `order:${orderId}` });
    expect(await statusMails(orderId)).toEqual([{ client_id: client.id, payload: { status: 'cancelled', reason: null } }]);

    const page = (await call('GET', '/api/client/orders/1,5', client.cookie)).json().data;
    expect(page.orders[0]).toMatchObject({ id: orderId, status: 'cancelled' });
    // The sales charts leave it out: no units of these copies sold today.
    const [sold] = await t.db.query<{ units: number | null }>(
      'SELECT sum(units)::int AS units FROM sales_daily_copies WHERE book_copy_id = ANY($1::int[])',
      [[a, b]],
    );
    expect(sold!.units ?? 0).toBe(0);
  });

  it('a Processing order can be cancelled too', async () => {
    const client = await t.newClient();
    const copy = await newCopy(5);
    const orderId = await order(client.cookie, [[copy, 2]]);
    expect((await call('PUT', `/api/employee/order/set-status/${orderId},Processing`, seller)).statusCode).toBe(200);
    expect((await cancelAsClient(client.cookie, orderId)).json().data.status).toBe('cancelled');
    expect((await copyRow(copy)).quantity).toBe(5);
  });

  it('cancelling twice: the second is a 409 that says so, and the stock comes back once', async () => {
    const client = await t.newClient();
    const copy = await newCopy(5);
    const orderId = await order(client.cookie, [[copy, 2]]);
    expect((await cancelAsClient(client.cookie, orderId)).statusCode).toBe(200);
    const again = await cancelAsClient(client.cookie, orderId);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatchObject({
      code: 'ORDER_NOT_CANCELLABLE',
      message: 'This order is already cancelled.',
      details: { status: 'cancelled' },
    });
    expect((await copyRow(copy)).quantity).toBe(5);
    expect(await statusMails(orderId)).toHaveLength(1);
  });

  it('a shipped order is a 409, and nothing moves', async () => {
    const client = await t.newClient();
    const copy = await newCopy(5);
    const orderId = await order(client.cookie, [[copy, 2]]);
    expect((await call('PUT', `/api/employee/order/set-status/${orderId},Shipped`, seller)).statusCode).toBe(200);
    const res = await cancelAsClient(client.cookie, orderId);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe('This order is Shipped and can no longer be cancelled.');
    expect(await copyRow(copy)).toEqual({ quantity: 3, units_sold: 2 });
    const staff = await cancelAsStaff(seller, orderId, 'Too late');
    expect(staff.statusCode).toBe(409);
  });

  it('an order that shipped and was set back to Processing stays uncancellable: its books are gone', async () => {
    const { client, copy, orderId } = await shippedThenSetBack(2);
    // Both order views say so, and the screens offer no Cancel for it.
    const mine = (await call('GET', '/api/client/orders/1,5', client.cookie)).json().data.orders;
    expect(mine).toEqual([expect.objectContaining({ id: orderId, status: 'Processing', cancellable: false })]);
    const staffView = (await call('GET', '/api/employee/order/1,5', seller)).json().data.orders;
    expect(staffView.find((o: { id: number }) => o.id === orderId)).toMatchObject({ status: 'Processing', cancellable: false });
    for (const res of [await cancelAsClient(client.cookie, orderId), await cancelAsStaff(admin, orderId, 'Misclick')]) {
      expect(res.statusCode).toBe(409);
      expect(res.json().error.message).toBe('This order has already been shipped and can no longer be cancelled.');
    }
    expect(await copyRow(copy)).toEqual({ quantity: 3, units_sold: 2 });
    // So does a seeded order that was delivered, set to Processing.
    const [delivered] = await t.db.query<{ id: number }>(
      "UPDATE orders SET status = 'delivered' WHERE id = (SELECT id FROM orders WHERE status = 'pending' ORDER BY id LIMIT 1) RETURNING id",
    );
    expect((await call('PUT', `/api/employee/order/set-status/${delivered!.id},Processing`, seller)).statusCode).toBe(200);
    expect((await cancelAsStaff(admin, delivered!.id, 'Misclick')).statusCode).toBe(409);
    // The status change is still the employee's in the audit log.
    const [audited] = await t.db.query<{ actor: string }>(
      "SELECT actor FROM security_events WHERE type = 'backoffice_write' AND entity = 'Order' AND entity_id = $1 ORDER BY id DESC LIMIT 1",
      [String(orderId)],
    );
    expect(audited!.actor).toMatch(/^employee:\d+$/);
  });

  it("the column's migration marks the orders set back before it, from the audit log's status changes", async () => {
    const { client, orderId } = await shippedThenSetBack(1);
    // As the orders were before the column: none marked.
    await t.db.query('UPDATE orders SET shipped_at = NULL WHERE id = $1', [orderId]);
    const migration = readFileSync(
      new URL('../../prisma/migrations/20261129030000_orders_shipped_at/migration.sql', import.meta.url),
      'utf8',
    );
    await t.db.query(migration.slice(migration.indexOf('UPDATE "orders"')));
    const [row] = await t.db.query<{ shipped: boolean }>('SELECT shipped_at IS NOT NULL AS shipped FROM orders WHERE id = $1', [orderId]);
    expect(row!.shipped).toBe(true);
    expect((await cancelAsClient(client.cookie, orderId)).statusCode).toBe(409);
  });

  it("another client's order is a 404, as is an order that does not exist; no session is a 401", async () => {
    const owner = await t.newClient();
    const other = await t.newClient();
    const copy = await newCopy(5);
    const orderId = await order(owner.cookie, [[copy, 1]]);
    const res = await cancelAsClient(other.cookie, orderId);
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe('This order does not exist.');
    expect((await cancelAsClient(other.cookie, 2147483647)).statusCode).toBe(404);
    expect((await cancelAsClient('', orderId)).statusCode).toBe(401);
    expect((await cancelAsClient(seller, orderId)).statusCode).toBe(401);
    expect((await copyRow(copy)).quantity).toBe(4);
    expect(await statusMails(orderId)).toEqual([]);
  });

  it(`a client's ${CANCELS_PER_CLIENT_PER_DAY + 1}th cancel of the day is a 429 with Retry-After; another client and staff still cancel`, async () => {
    const looping = await t.newClient();
    const copy = await newCopy(5);
    for (let i = 0; i < CANCELS_PER_CLIENT_PER_DAY; i++) {
      const cancelled = await cancelAsClient(looping.cookie, await order(looping.cookie, [[copy, 1]]));
      expect(cancelled.statusCode, cancelled.body).toBe(200);
    }
    const orderId = await order(looping.cookie, [[copy, 1]]);
    const refused = await cancelAsClient(looping.cookie, orderId);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json().error.message).toMatch(/^Too many requests\. Please try again in \d+ hours?\.$/);
    expect((await copyRow(copy)).quantity).toBe(4);

    // Counted only once the session is known: without one it is a 401, as ever.
    expect((await cancelAsClient('', orderId)).statusCode).toBe(401);
    // The limit is the client's, not the address's (every client here shares one).
    const other = await t.newClient();
    expect((await cancelAsClient(other.cookie, await order(other.cookie, [[copy, 1]]))).statusCode).toBe(200);
    expect((await cancelAsStaff(seller, orderId, 'Asked by phone')).statusCode).toBe(200);
    expect((await copyRow(copy)).quantity).toBe(5);
  });
});

describe('staff cancel an unshipped order with a reason', () => {
  it('the audit log and the status e-mail carry the reason; the movement is a cancellation by the employee', async () => {
    const client = await t.newClient();
    const copy = await newCopy(8);
    const orderId = await order(client.cookie, [[copy, 3]]);
    const reason = 'The book arrived damaged from the distributor.';
    const res = await cancelAsStaff(seller, orderId, `  ${reason} `);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ id: orderId, status: 'cancelled' });
    expect((await copyRow(copy)).quantity).toBe(8);

    const [sellerRow] = await t.db.query<{ id: number }>('SELECT id FROM employees WHERE email = $1', [DEMO.seller.account]);
    expect((await movements(copy)).at(-1)).toEqual({
      change: 3,
      reason: 'cancellation',
      actor: `employee:${sellerRow!.id}`,
      reference: `order:${orderId}`,
    });
    expect(await statusMails(orderId)).toEqual([{ client_id: client.id, payload: { status: 'cancelled', reason } }]);

    const log = (await call('GET', '/api/employee/audit-log/?entity=Order', admin)).json().data;
    const entry = log.entries.find((e: { entityId: string }) => e.entityId === String(orderId));
    expect(entry).toMatchObject({
      type: 'backoffice_write',
      actor: `employee:${sellerRow!.id}`,
      details: { operation: 'update', after: { status: 'cancelled', cancel_reason: reason } },
    });
    expect(entry.details.changed).toEqual(expect.arrayContaining(['cancel_reason', 'status']));
  });

  it('a reason is required (not blank) and at most 500 characters; a Seller may, a client may not', async () => {
    const client = await t.newClient();
    const copy = await newCopy(5);
    const orderId = await order(client.cookie, [[copy, 1]]);
    const blank = await cancelAsStaff(seller, orderId, '   ');
    expect(blank.statusCode).toBe(400);
    expect(blank.json().error.message).toBe('Please give the reason for cancelling this order.');
    expect((await call('POST', `/api/employee/order/${orderId}/cancel`, seller, {})).statusCode).toBe(400);
    expect((await cancelAsStaff(seller, orderId, 'x'.repeat(501))).statusCode).toBe(400);
    expect((await cancelAsStaff(client.cookie, orderId, 'mine')).statusCode).toBe(401);
    expect((await cancelAsStaff(seller, 2147483647, 'gone')).statusCode).toBe(404);
    expect((await copyRow(copy)).quantity).toBe(4);
    expect((await cancelAsStaff(admin, orderId, 'x'.repeat(500))).statusCode).toBe(200);
  });

  it("the spec's status buttons leave a cancelled order cancelled (its stock is back on the shelf)", async () => {
    const client = await t.newClient();
    const copy = await newCopy(5);
    const orderId = await order(client.cookie, [[copy, 1]]);
    expect((await cancelAsClient(client.cookie, orderId)).statusCode).toBe(200);
    const res = await call('PUT', `/api/employee/order/set-status/${orderId},Shipped`, seller);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toMatch(/was cancelled/);
    const [row] = await t.db.query<{ status: string }>('SELECT status FROM orders WHERE id = $1', [orderId]);
    expect(row!.status).toBe('cancelled');
  });
});

describe("the spec's status buttons on an order that holds no stock", () => {
  /** A sold order of `units` of a new copy, then made failed from outside (only the seed's orders fail): it took no stock. */
  async function failedOrder(units: number) {
    const client = await t.newClient();
    const copy = await newCopy(5);
    const orderId = await order(client.cookie, [[copy, units]]);
    await t.db.query("UPDATE orders SET status = 'failed' WHERE id = $1", [orderId]);
    return { client, copy, orderId };
  }
  const soldOfCopy = async (copy: number) =>
    (
      await t.db.query<{ units: number }>('SELECT coalesce(sum(units), 0)::int AS units FROM sales_daily_copies WHERE book_copy_id = $1', [
        copy,
      ])
    )[0]!.units;

  it('a failed order stays failed: never counted as sold, never cancellable for stock it never took', async () => {
    const { client, copy, orderId } = await failedOrder(2);
    const stock = (await copyRow(copy)).quantity;
    expect(await soldOfCopy(copy)).toBe(0);
    for (const status of ['Processing', 'Shipped']) {
      const res = await call('PUT', `/api/employee/order/set-status/${orderId},${status}`, seller);
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toMatchObject({
        code: 'ORDER_STATUS_KEPT',
        message: 'This order failed and took no stock; its status can no longer change.',
      });
    }
    expect((await cancelAsClient(client.cookie, orderId)).statusCode).toBe(409);
    const [row] = await t.db.query<{ status: string }>('SELECT status FROM orders WHERE id = $1', [orderId]);
    expect(row!.status).toBe('failed');
    expect((await copyRow(copy)).quantity).toBe(stock);
    expect(await soldOfCopy(copy)).toBe(0);
  });

  it('the migration sets back the failed orders the buttons had moved, from the audit log, and writes their clients no e-mail', async () => {
    const { copy, orderId } = await failedOrder(2);
    // As the buttons did before: a Seller's audited change from failed to Processing, counted as sold since.
    await t.db.query(
      `BEGIN; SELECT set_config('bookshop.audit_actor', 'employee:2', true);
       UPDATE orders SET status = 'Processing' WHERE id = ${orderId}; COMMIT`,
    );
    expect(await soldOfCopy(copy)).toBe(2);
    // Its status e-mail went long ago (one still waiting would be replaced by the next change's).
    await t.db.query("UPDATE mail_outbox SET sent_at = localtimestamp - interval '1 day' WHERE order_id = $1", [orderId]);
    const mailsBefore = (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM mail_outbox WHERE order_id = $1', [orderId]))[0]!
      .n;
    const migration = readFileSync(
      new URL('../../prisma/migrations/20261129090000_failed_orders_keep_their_status/migration.sql', import.meta.url),
      'utf8',
    );
    await t.db.query(migration);
    const [row] = await t.db.query<{ status: string }>('SELECT status FROM orders WHERE id = $1', [orderId]);
    expect(row!.status).toBe('failed');
    expect(await soldOfCopy(copy)).toBe(0);
    expect((await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM mail_outbox WHERE order_id = $1', [orderId]))[0]!.n).toBe(
      mailsBefore,
    );
  });

  it("the repair counts a copy's units sold again from its order lines: a revived failed order's cancel had left it too low", async () => {
    const client = await t.newClient();
    const [short, right] = [await newCopy(5), await newCopy(5)];
    await order(client.cookie, [[short, 3]]);
    await order(client.cookie, [[right, 1]]);
    // As such a cancel did: two units taken back from what was sold, that the order had never added.
    await t.db.query('UPDATE book_copies SET units_sold = units_sold - 2 WHERE id = $1', [short]);
    const version = async (copy: number) =>
      (await t.db.query<{ version: number }>('SELECT version FROM book_copies WHERE id = $1', [copy]))[0]!.version;
    const rightVersion = await version(right);
    await t.db.query(
      readFileSync(new URL('../../prisma/migrations/20261130102000_units_sold_from_order_lines/migration.sql', import.meta.url), 'utf8'),
    );
    expect((await copyRow(short)).units_sold).toBe(3);
    expect((await copyRow(right)).units_sold).toBe(1);
    // A copy that was right is not written: a staff form open on it stays current.
    expect(await version(right)).toBe(rightVersion);
  });

  it("two changes in opposite directions on one day's orders: the deadlock's victim runs again, and both land", async () => {
    const client = await t.newClient();
    const orderId = await order(client.cookie, [[await newCopy(5), 1]]);
    expect((await call('PUT', `/api/employee/order/set-status/${orderId},Processing`, seller)).statusCode).toBe(200);
    const [{ day }] = (await t.db.query<{ day: string }>('SELECT created_at::date::text AS day FROM orders WHERE id = $1', [orderId])) as [
      { day: string },
    ];
    await t.db.query("INSERT INTO sales_daily (day, status, orders, revenue) VALUES ($1, 'Shipped', 0, 0) ON CONFLICT DO NOTHING", [day]);
    // Another order going Shipped → Processing, from outside, holds the day's Shipped count first, while ours
    // (Processing → Shipped) takes the Processing count and waits for the Shipped one; then the other wants
    // the Processing count.
    const res = await deadlockedAgainst(
      ["UPDATE sales_daily SET orders = orders WHERE day = $1 AND status = 'Shipped'", [day]],
      ["UPDATE sales_daily SET orders = orders WHERE day = $1 AND status = 'Processing'", [day]],
      () => call('PUT', `/api/employee/order/set-status/${orderId},Shipped`, seller),
    );
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await t.db.query<{ status: string }>('SELECT status FROM orders WHERE id = $1', [orderId]);
    expect(row!.status).toBe('Shipped');
  });
});

describe('a status change with the status the employee saw', () => {
  it("an order another employee moved on meanwhile keeps its status (409 with the one it has); without it, the spec's buttons set it", async () => {
    const client = await t.newClient();
    const orderId = await order(client.cookie, [[await newCopy(5), 1]]);
    const [{ status: seen }] = (await t.db.query<{ status: string }>('SELECT status FROM orders WHERE id = $1', [orderId])) as [
      { status: string },
    ];
    const setStatus = (status: string, from?: string) =>
      call(
        'PUT',
        `/api/employee/order/set-status/${orderId},${status}${from === undefined ? '' : `?from=${encodeURIComponent(from)}`}`,
        seller,
      );
    // Another employee ships it; this one, whose list still shows it as it was, asks for Processing.
    expect((await setStatus('Shipped', seen)).statusCode).toBe(200);
    const refused = await setStatus('Processing', seen);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({
      code: 'ORDER_STATUS_CHANGED',
      message: "This order's status changed to Shipped meanwhile: look at it again before changing it.",
    });
    const [row] = await t.db.query<{ status: string }>('SELECT status FROM orders WHERE id = $1', [orderId]);
    expect(row!.status).toBe('Shipped');
    // Seen as it is now (in any case), the change goes; the spec's own client sends no status and is obeyed.
    expect((await setStatus('Processing', 'shipped')).statusCode).toBe(200);
    expect((await setStatus('Shipped')).statusCode).toBe(200);
    expect((await setStatus('Processing', 'Processing')).statusCode).toBe(409);
    // Asked for the status it already has, seen before it moved there (the employee's own change, its page not yet back): done.
    expect((await setStatus('Shipped', seen)).json()).toEqual({ data: 'Shipped' });
  });

  it('a staff cancel says the status it saw too: an order another employee moved on meanwhile is not cancelled unseen', async () => {
    const client = await t.newClient();
    const copy = await newCopy(5);
    const orderId = await order(client.cookie, [[copy, 1]]);
    const cancel = (from?: string) =>
      call('POST', `/api/employee/order/${orderId}/cancel${from === undefined ? '' : `?from=${from}`}`, seller, { reason: 'Out of print' });
    // Another employee takes it into Processing; this one, whose list still shows it pending, cancels it.
    expect((await call('PUT', `/api/employee/order/set-status/${orderId},Processing?from=pending`, seller)).statusCode).toBe(200);
    const refused = await cancel('pending');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({
      code: 'ORDER_STATUS_CHANGED',
      message: "This order's status changed to Processing meanwhile: look at it again before changing it.",
    });
    expect((await t.db.query('SELECT status FROM orders WHERE id = $1', [orderId]))[0]).toEqual({ status: 'Processing' });
    expect((await copyRow(copy)).quantity).toBe(4);
    // Seen as it is, it is cancelled and its stock is back.
    expect((await cancel('Processing')).statusCode).toBe(200);
    expect((await copyRow(copy)).quantity).toBe(5);
  });
});

describe('a cancel in a deadlock', () => {
  it("a cancel and another order's change taking one day's counts in opposite orders: the victim runs again, and both land", async () => {
    const client = await t.newClient();
    const copy = await newCopy(5);
    const orderId = await order(client.cookie, [[copy, 2]]);
    const [{ day, status, typeId }] = (await t.db.query<{ day: string; status: string; typeId: number }>(
      `SELECT o.created_at::date::text AS day, o.status, oi.type_id AS "typeId"
       FROM orders o JOIN order_items oi ON oi.order_id = o.id WHERE o.id = $1`,
      [orderId],
    )) as [{ day: string; status: string; typeId: number }];
    // Another change holds the day's count of the order's category first, while the cancel takes the day's
    // count of its status and waits for the category's; then the other wants the status's count.
    const res = await deadlockedAgainst(
      ['UPDATE sales_daily_categories SET units = units WHERE day = $1 AND type_id = $2', [day, typeId]],
      ['UPDATE sales_daily SET orders = orders WHERE day = $1 AND status = $2', [day, status]],
      () => cancelAsClient(client.cookie, orderId),
    );
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await t.db.query<{ status: string; quantity: number }>(
      'SELECT o.status, c.quantity FROM orders o, book_copies c WHERE o.id = $1 AND c.id = $2',
      [orderId, copy],
    );
    expect(row).toEqual({ status: 'cancelled', quantity: 5 });
  });
});

describe('a checkout in a deadlock', () => {
  it("a checkout and another change taking one day's counts in opposite orders: the victim runs again, and both land", async () => {
    const client = await t.newClient();
    const copy = await newCopy(5);
    // Today's counts exist (an order of the copy's category), as on any day with sales.
    await order((await t.newClient()).cookie, [[copy, 1]]);
    const [{ day, typeId }] = (await t.db.query<{ day: string; typeId: number }>(
      'SELECT localtimestamp::date::text AS day, b.type_id AS "typeId" FROM book_copies c JOIN books b ON b.id = c.book_id WHERE c.id = $1',
      [copy],
    )) as [{ day: string; typeId: number }];
    const cart = await fillCart(client.cookie, [[copy, 2]]);
    // Another change holds the day's count of the copy's category first, while the checkout takes the day's
    // count of its orders and waits for the category's; then the other wants the day's counts of orders.
    const res = await deadlockedAgainst(
      ['UPDATE sales_daily_categories SET units = units WHERE day = $1 AND type_id = $2', [day, typeId]],
      ['UPDATE sales_daily SET orders = orders WHERE day = $1', [day]],
      () => t.checkout(client.cookie, cart),
    );
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await t.db.query<{ quantity: number }>('SELECT quantity FROM book_copies WHERE id = $1', [copy]);
    expect(row).toEqual({ quantity: 2 });
  });
});

describe('cancels racing checkouts', () => {
  it('50 concurrent cancels and checkouts on the same copies leave each stock what the orders explain and what the ledger sums to', async () => {
    const initial = 25;
    const copies = [await newCopy(initial), await newCopy(initial), await newCopy(initial)];
    // A cart line is one per client and copy: each checkout of the burst has a client of its own.
    const clients = await Promise.all(Array.from({ length: 30 }, () => t.newClient()));
    // Each order crosses two of the copies, in either order in the cart, so cancels and checkouts lock overlapping rows.
    const linesFor = (i: number): [number, number][] => [
      [copies[(i + 1) % 3]!, 1 + (i % 2)],
      [copies[i % 3]!, 1],
    ];
    const placed: { cookie: string; id: number }[] = [];
    for (let i = 0; i < 16; i++) placed.push({ cookie: clients[i]!.cookie, id: await order(clients[i]!.cookie, linesFor(i)) });
    // The checkouts' carts are filled beforehand: the burst is the checkouts themselves.
    const carts = [];
    for (const [i, client] of clients.entries())
      carts.push({ cookie: client.cookie, cart: await fillCart(client.cookie, linesFor(i + 1)) });

    // 20 cancels (16 orders, four of them cancelled twice at once; every fourth by staff) and 30 checkouts, interleaved.
    const work: Promise<{ statusCode: number; body: string }>[] = [];
    for (const [i, c] of carts.entries()) {
      const p = placed[i];
      if (p) {
        work.push(i % 4 === 3 ? cancelAsStaff(seller, p.id, 'Racing test') : cancelAsClient(p.cookie, p.id));
        if (i % 4 === 0) work.push(cancelAsClient(p.cookie, p.id));
      }
      work.push(t.checkout(c.cookie, c.cart));
    }
    expect(work).toHaveLength(50);
    const answers = await Promise.all(work);
    expect(answers.filter((a) => a.statusCode >= 500 || ![200, 409].includes(a.statusCode)).map((a) => a.body)).toEqual([]);
    // Each doubled cancel: one 200 and one 409.
    const cancelled = await t.db.query<{ id: number }>("SELECT id FROM orders WHERE id = ANY($1::int[]) AND status = 'cancelled'", [
      placed.map((p) => p.id),
    ]);
    expect(cancelled).toHaveLength(16);

    const explained = await t.db.query<{ id: number; quantity: number; units_sold: number; ordered: number; moved: number }>(
      `SELECT c.id, c.quantity, c.units_sold,
         (SELECT coalesce(sum(oi.quantity), 0)::int FROM order_items oi JOIN orders o ON o.id = oi.order_id
          WHERE oi.book_copy_id = c.id AND o.status <> 'cancelled') AS ordered,
         (SELECT coalesce(sum(m.change), 0)::int FROM stock_movements m WHERE m.copy_id = c.id) AS moved
       FROM book_copies c WHERE c.id = ANY($1::int[]) ORDER BY c.id`,
      [copies],
    );
    for (const copy of explained) {
      expect(copy.quantity).toBe(initial - copy.ordered);
      expect(copy.moved).toBe(copy.quantity);
      expect(copy.units_sold).toBe(copy.ordered);
    }
    const [mails] = await t.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM mail_outbox WHERE kind = 'order_status' AND order_id = ANY($1::int[])",
      [placed.map((p) => p.id)],
    );
    expect(mails!.n).toBe(16);
  });
});

describe('units sold by category when a book changes category', () => {
  /** A new book of the first category with one copy of 20 at 10.00: the test's own rows. */
  async function newBookCopy() {
    const [row] = await t.db.query<{ book_id: number; copy_id: number; type_id: number }>(
      `WITH b AS (
         INSERT INTO books (name, search_text, author_id, type_id)
         SELECT 'Moving Shelves', 'moving shelves', min(a.id), (SELECT min(id) FROM book_types) FROM authors a RETURNING id, type_id
       ), c AS (INSERT INTO book_copies (book_id, quantity, price) SELECT id, 20, '10.00' FROM b RETURNING id)
       SELECT b.id AS book_id, c.id AS copy_id, b.type_id FROM b, c`,
    );
    return row!;
  }
  /** A category other than the new books': the last one. */
  const otherCategory = async () => (await t.db.query<{ id: number }>('SELECT max(id) AS id FROM book_types'))[0]!.id;
  /** Units sold of each category on every day, as the chart reads them (rows at 0 left out). */
  const byCategory = () =>
    t.db.query<{ day: string; type_id: number; units: number }>(
      'SELECT day::text, type_id, units FROM sales_daily_categories WHERE units <> 0 ORDER BY 1, 2',
    );
  /** The same, summed from the sold orders' lines by the category each was sold in: what byCategory must equal. */
  const byLinesAsSold = () =>
    t.db.query<{ day: string; type_id: number; units: number }>(
      `SELECT o.created_at::date::text AS day, oi.type_id, sum(oi.quantity)::int AS units
       FROM orders o JOIN order_items oi ON oi.order_id = o.id WHERE order_is_sold(o.status)
       GROUP BY 1, 2 HAVING sum(oi.quantity) <> 0 ORDER BY 1, 2`,
    );

  it('a sale, the book moved to another category, then the order cancelled: each category is back where it was', async () => {
    const before = await byCategory();
    const { book_id, copy_id } = await newBookCopy();
    const client = await t.newClient();
    const orderId = await order(client.cookie, [[copy_id, 3]]);
    const sold = await byCategory();

    const moved = await call('PUT', '/api/employee/book', admin, { id: book_id, typeId: await otherCategory() });
    expect(moved.statusCode, moved.body).toBe(200);
    // The units stay where they were sold.
    expect(await byCategory()).toEqual(sold);
    const cancelled = await cancelAsClient(client.cookie, orderId);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    // Before, the first category kept 3 units the shop no longer sold, and the other lost 3 it never sold.
    expect(await byCategory()).toEqual(before);
    expect(await byCategory()).toEqual(await byLinesAsSold());
  });

  it('a copy moved to a book of another category leaves its sold units where they were sold', async () => {
    const { copy_id } = await newBookCopy();
    const client = await t.newClient();
    await order(client.cookie, [[copy_id, 2]]);
    const sold = await byCategory();
    const [target] = await t.db.query<{ id: number }>(
      `INSERT INTO books (name, search_text, author_id, type_id) SELECT 'Elsewhere', 'elsewhere', min(id), $1 FROM authors RETURNING id`,
      [await otherCategory()],
    );
    const saved = await call('PUT', '/api/employee/book-copy', admin, {
      id: copy_id,
      bookId: target!.id,
      quantity: 18,
      price: 10,
      isAvailable: true,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await byCategory()).toEqual(sold);
    expect(await byCategory()).toEqual(await byLinesAsSold());
  });

  it("checkouts and cancels racing changes of the book's category leave every category what its lines sold", async () => {
    const { book_id, copy_id, type_id } = await newBookCopy();
    const other = await otherCategory();
    const clients = await Promise.all(Array.from({ length: 8 }, () => t.newClient()));
    const carts = await Promise.all(clients.map((client) => fillCart(client.cookie, [[copy_id, 1]])));
    await Promise.all([
      ...clients.map(async (client, i) => {
        const placed = await t.checkout(client.cookie, carts[i]!);
        expect(placed.statusCode, placed.body).toBe(200);
        if (i % 2) expect((await cancelAsClient(client.cookie, placed.json().data.id)).statusCode).toBe(200);
      }),
      ...[other, type_id, other, type_id, other].map(async (typeId) => {
        expect((await call('PUT', '/api/employee/book', admin, { id: book_id, typeId })).statusCode).toBe(200);
      }),
    ]);
    expect(await byCategory()).toEqual(await byLinesAsSold());
  });
});

describe("the client's e-mail choices", () => {
  it('read both on by default, set, read back; both are required', async () => {
    const client = await t.newClient();
    const url = '/api/client/manage/mail-preferences';
    expect((await call('GET', url, client.cookie)).json().data).toEqual({ statusEmails: true, backInStockEmails: true });
    const set = await call('PUT', url, client.cookie, { statusEmails: false, backInStockEmails: true });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data).toEqual({ statusEmails: false, backInStockEmails: true });
    expect((await call('GET', url, client.cookie)).json().data).toEqual({ statusEmails: false, backInStockEmails: true });
    await call('PUT', url, client.cookie, { statusEmails: true, backInStockEmails: false });
    expect(await t.db.query('SELECT status_emails, back_in_stock_emails FROM clients WHERE id = $1', [client.id])).toEqual([
      { status_emails: true, back_in_stock_emails: false },
    ]);
    expect((await call('PUT', url, client.cookie, { statusEmails: false })).statusCode).toBe(400);
    expect((await call('GET', url, '')).statusCode).toBe(401);
    expect((await call('GET', url, seller)).statusCode).toBe(401);
  });
});

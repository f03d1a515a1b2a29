// A write's answer says what it did (lib/write-budget.ts): a request answered 503 TIMEOUT writes
// nothing, even when the lock it waited on is let go just after; a write that takes effect as its
// budget runs out is answered as its handler answers, late, not 503. Each way the API writes is here:
// a transaction in plain SQL (checkout) and through Prisma (a staff save, and a staff member's single
// write, which the audit makes a transaction), and a lone statement in plain SQL (a cart add) and
// through Prisma (a client's own details). A lock held from outside makes
// each wait past the budget.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { LOCK_CART_LINES_SQL } from '../src/modules/orders/order-queries.ts';
import { createBuyers, createCopy, sleep } from './fault-helpers.ts';
import { createTestApp, DEMO, statementRecorder, untilARowIsAwaited, untilTheApiIsIdle as untilIdle } from './helpers.ts';

const BUDGET_MS = 1000;
const statements = statementRecorder();
// A lock wait allowed longer than the budget: the budget is what ends the wait for the client.
const t = await createTestApp({
  env: { REQUEST_TIMEOUT_MS: String(BUDGET_MS), DATABASE_LOCK_TIMEOUT_MS: '4000', DATABASE_CONNECT_TIMEOUT_MS: '500' },
  onQuery: statements.onQuery,
});

/** Holds the rows a `SELECT … FOR UPDATE` names, from outside the API, until the answer's `release`. */
async function lockFromOutside(sql: string, values: unknown[]) {
  const locker = new pg.Client({ connectionString: t.db.url });
  await locker.connect();
  await locker.query('BEGIN');
  await locker.query(sql, values);
  return async () => {
    await locker.query('ROLLBACK');
    await locker.end();
  };
}

const untilTheApiIsIdle = () => untilIdle(t.db);

async function buyerWithLine(copy: number) {
  const [account] = await createBuyers(t.db.query, 1);
  const cookie = await t.login({ account: account!, password: DEMO.client.password });
  const line = (await t.app.inject({ method: 'POST', url: `/api/client/cart/${copy}`, headers: { cookie } })).json().data as number;
  return { cookie, line };
}

describe('a write past its time budget', () => {
  it('a checkout answered 503 TIMEOUT orders nothing, though the lock it waited on goes just after', async () => {
    const copy = await createCopy(t.db.query, 10);
    const { cookie, line } = await buyerWithLine(copy);
    const release = await lockFromOutside('SELECT * FROM book_copies WHERE id = $1 FOR UPDATE', [copy]);
    let answer: Awaited<ReturnType<typeof t.checkout>> | undefined;
    const sent = await statements.during(async () => {
      try {
        answer = await t.checkout(cookie, { totalPrice: 10.5, totalQuantity: 1, cartItemsIds: [line] });
      } finally {
        await release();
      }
      await untilTheApiIsIdle();
    });
    expect(answer!.statusCode, answer!.body).toBe(503);
    expect(answer!.json().error.code).toBe('TIMEOUT');
    // Its lines' lock, let go after the 503, was the last statement it sent: it took no stock, and rolled back.
    expect(sent).toContain(LOCK_CART_LINES_SQL);
    expect(sent.slice(sent.indexOf(LOCK_CART_LINES_SQL) + 1)).toEqual(['ROLLBACK']);
    expect(await t.db.query('SELECT quantity FROM book_copies WHERE id = $1', [copy])).toEqual([{ quantity: 10 }]);
    expect(await t.db.query('SELECT id FROM order_items WHERE book_copy_id = $1', [copy])).toEqual([]);
    expect(await t.db.query('SELECT id FROM cart_items WHERE id = $1', [line])).toEqual([{ id: line }]);
    // Nothing was left half-done: the same checkout now goes through.
    expect((await t.checkout(cookie, { totalPrice: 10.5, totalQuantity: 1, cartItemsIds: [line] })).statusCode).toBe(200);
  });

  it("a staff save answered 503 TIMEOUT changes nothing, though the copy's lock goes just after", async () => {
    const admin = await t.login(DEMO.admin);
    const copy = await createCopy(t.db.query, 10);
    const release = await lockFromOutside('SELECT * FROM book_copies WHERE id = $1 FOR UPDATE', [copy]);
    let answer: Awaited<ReturnType<typeof t.app.inject>> | undefined;
    const sent = await statements.during(async () => {
      try {
        answer = await t.app.inject({
          method: 'PUT',
          url: '/api/employee/book-copy',
          headers: { cookie: admin },
          payload: { id: copy, bookId: 1, quantity: 20, price: 12.5, isAvailable: true },
        });
      } finally {
        await release();
      }
      await untilTheApiIsIdle();
    });
    expect(answer!.statusCode, answer!.body).toBe(503);
    expect(answer!.json().error.code).toBe('TIMEOUT');
    // Past the copy's lock, let go after the 503, the save sent nothing more: no read of the copy, no update.
    expect(sent.slice(sent.findIndex((sql) => /FOR UPDATE/.test(sql)) + 1)).toEqual(['ROLLBACK']);
    expect(await t.db.query('SELECT quantity, price::text FROM book_copies WHERE id = $1', [copy])).toEqual([
      { quantity: 10, price: '10.50' },
    ]);
    expect(await t.db.query('SELECT change FROM stock_movements WHERE copy_id = $1 AND change <> 10', [copy])).toEqual([]);
  });

  it("a staff member's single write (audited: the actor named in its transaction) answered 503 TIMEOUT deletes nothing", async () => {
    const admin = await t.login(DEMO.admin);
    const [message] = await t.db.query<{ id: number }>(
      "INSERT INTO contact_messages (user_name, account, message) VALUES ('Late', 'late@example.com', 'Still here?') RETURNING id",
    );
    const release = await lockFromOutside('SELECT * FROM contact_messages WHERE id = $1 FOR UPDATE', [message!.id]);
    let answer: Awaited<ReturnType<typeof t.app.inject>>;
    try {
      answer = await t.app.inject({ method: 'DELETE', url: `/api/employee/contact/${message!.id}`, headers: { cookie: admin } });
    } finally {
      await release();
    }
    expect(answer.statusCode, answer.body).toBe(503);
    expect(answer.json().error.code).toBe('TIMEOUT');
    await untilTheApiIsIdle();
    expect(await t.db.query('SELECT id FROM contact_messages WHERE id = $1', [message!.id])).toEqual([{ id: message!.id }]);
  });

  it('a cart add that takes effect after the budget is answered as done, late, not 503', async () => {
    const copy = await createCopy(t.db.query, 10);
    const { cookie, line } = await buyerWithLine(copy);
    const release = await lockFromOutside('SELECT * FROM cart_items WHERE id = $1 FOR UPDATE', [line]);
    const started = Date.now();
    const adding = t.app.inject({ method: 'POST', url: `/api/client/cart/${copy}`, headers: { cookie } });
    try {
      await untilARowIsAwaited(t.db);
      await sleep(BUDGET_MS + 300); // past the budget, and a sweep
    } finally {
      await release();
    }
    const answer = await adding;
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().data).toBe(line);
    expect(Date.now() - started).toBeGreaterThan(BUDGET_MS);
    expect(await t.db.query('SELECT quantity FROM cart_items WHERE id = $1', [line])).toEqual([{ quantity: 2 }]);
  });

  it("a client's change of their own details that takes effect after the budget is answered as done, not 503", async () => {
    const client = await t.newClient();
    const release = await lockFromOutside('SELECT * FROM clients WHERE id = $1 FOR UPDATE', [client.id]);
    const changing = t.app.inject({
      method: 'PATCH',
      url: '/api/client/manage',
      headers: { cookie: client.cookie },
      payload: { firstName: 'Late', lastName: 'Client', phoneNumber: '0555000000' },
    });
    try {
      await untilARowIsAwaited(t.db);
      await sleep(BUDGET_MS + 300);
    } finally {
      await release();
    }
    const answer = await changing;
    expect(answer.statusCode, answer.body).toBe(200);
    expect(await t.db.query('SELECT first_name FROM clients WHERE id = $1', [client.id])).toEqual([{ first_name: 'Late' }]);
  });
});

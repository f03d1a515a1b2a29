// Wishlists and back-in-stock notices: a restock by the back-office writes one notice (and its
// outbox row) per client wishing for the copy, in the restock's transaction; the bell counts them.
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { WISHLIST_MAX } from '../src/modules/wishlist/wishlist-service.ts';
import { WISHLIST_WRITES_PER_HOUR } from '../src/routes/client/wishlist.ts';
import { createTestApp, DEMO, type TestApp } from './helpers.ts';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(DEMO.admin);
});

const call = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, cookie: string, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie }, payload });

const newClient = () => t.newClient();
async function soldOutCopy() {
  const [row] = await t.db.query<{ id: number }>('INSERT INTO book_copies (book_id, quantity, price) VALUES (1, 0, 12.5) RETURNING id');
  return row!.id;
}
/** The back-office's copy edit, as an Admin saves it. */
const restock = (id: number, quantity: number, isAvailable = true) =>
  call('PUT', '/api/employee/book-copy/', admin, { id, bookId: 1, quantity, price: 12.5, isAvailable });
const notices = async (cookie: string) => (await call('GET', '/api/client/notices', cookie)).json().data;

describe('wishlist', () => {
  it('keeps the copies a client wishes for, newest first, once each, and only their own', async () => {
    const [me, other] = [await newClient(), await newClient()];
    const [a, b] = [await soldOutCopy(), await soldOutCopy()];
    for (const id of [a, b, a]) expect((await call('PUT', `/api/client/wishlist/${id}`, me.cookie)).statusCode).toBe(200);
    const list = (await call('GET', '/api/client/wishlist', me.cookie)).json().data;
    expect(list.map((w: { id: number }) => w.id)).toEqual([b, a]);
    expect(list[0]).toMatchObject({ id: b, price: 12.5, quantity: 0, available: true, authorId: expect.any(Number) });
    expect((await call('GET', '/api/client/wishlist', other.cookie)).json().data).toEqual([]);

    await call('DELETE', `/api/client/wishlist/${b}`, me.cookie);
    expect((await call('GET', '/api/client/wishlist', me.cookie)).json().data.map((w: { id: number }) => w.id)).toEqual([a]);
    expect((await call('PUT', '/api/client/wishlist/999999999', me.cookie)).statusCode).toBe(404);
    // A copy not on sale is shown to no one: wishing for it by its number would show its name, price and stock.
    const [offSale] = await t.db.query<{ id: number }>(
      'INSERT INTO book_copies (book_id, quantity, price, is_available) VALUES (1, 3, 9.5, false) RETURNING id',
    );
    expect((await call('PUT', `/api/client/wishlist/${offSale!.id}`, me.cookie)).statusCode).toBe(404);
    expect((await call('GET', '/api/client/wishlist', '')).statusCode).toBe(401);
  });

  it(`refuses a copy past ${WISHLIST_MAX}`, async () => {
    const me = await newClient();
    await t.db.query(
      `INSERT INTO wishlist_items (client_id, book_copy_id) SELECT $1, id FROM book_copies ORDER BY id LIMIT ${WISHLIST_MAX}`,
      [me.id],
    );
    const res = await call('PUT', `/api/client/wishlist/${await soldOutCopy()}`, me.cookie);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(`Your wishlist is full (${WISHLIST_MAX} books). Remove one to add another.`);
  });

  it(`a loop of hearts ends at ${WISHLIST_WRITES_PER_HOUR} changes an hour for one client, adds and removals each; another client still adds`, async () => {
    const [me, other] = [await newClient(), await newClient()];
    const copy = await soldOutCopy();
    for (const method of ['PUT', 'DELETE'] as const) {
      for (let i = 0; i < WISHLIST_WRITES_PER_HOUR; i++) {
        expect((await call(method, `/api/client/wishlist/${copy}`, me.cookie)).statusCode).toBe(200);
      }
      const refused = await call(method, `/api/client/wishlist/${copy}`, me.cookie);
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect((await call('PUT', `/api/client/wishlist/${copy}`, other.cookie)).statusCode).toBe(200);
  }, 60_000);

  it('a burst of adds at once, one short of the cap, adds one and refuses the rest', async () => {
    const me = await newClient();
    await t.db.query(
      `INSERT INTO wishlist_items (client_id, book_copy_id) SELECT $1, id FROM book_copies ORDER BY id LIMIT ${WISHLIST_MAX - 1}`,
      [me.id],
    );
    const copies = await Promise.all(Array.from({ length: 20 }, () => soldOutCopy()));
    const answers = await Promise.all(copies.map((id) => call('PUT', `/api/client/wishlist/${id}`, me.cookie)));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode === 409)).toHaveLength(19);
    const [{ n }] = (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM wishlist_items WHERE client_id = $1', [me.id])) as [
      { n: number },
    ];
    expect(n).toBe(WISHLIST_MAX);
  });

  it("an add that finds another of the client's still running waits for it a while, then says to try again", async () => {
    const me = await newClient();
    const copy = await soldOutCopy();
    // Another add of this client's, held open from outside.
    const other = new pg.Client({ connectionString: t.db.url });
    await other.connect();
    await other.query('BEGIN');
    await other.query('SELECT pg_advisory_xact_lock(16018, $1)', [me.id]);
    try {
      const answer = call('PUT', `/api/client/wishlist/${copy}`, me.cookie);
      // While it waits it holds no connection: none is left waiting on the lock in the database.
      await new Promise((resolve) => setTimeout(resolve, 150));
      const [{ waiting }] = (await t.db.query<{ waiting: number }>(
        `SELECT count(*)::int AS waiting FROM pg_locks
         WHERE locktype = 'advisory' AND NOT granted AND classid = 16018 AND objid = $1
           AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
        [me.id],
      )) as [{ waiting: number }];
      expect(waiting).toBe(0);
      const res = await answer;
      expect(res.statusCode).toBe(409);
      expect(res.json().error.message).toBe('Your wishlist is being changed at this moment. Please try again.');
    } finally {
      await other.query('ROLLBACK');
      await other.end();
    }
    expect((await call('PUT', `/api/client/wishlist/${copy}`, me.cookie)).statusCode).toBe(200);
  });
});

describe('back in stock', () => {
  it('a restock notifies each client wishing for the copy once, with an outbox row, and the bell counts it until read', async () => {
    const [me, other, bystander] = [await newClient(), await newClient(), await newClient()];
    const copy = await soldOutCopy();
    await call('PUT', `/api/client/wishlist/${copy}`, me.cookie);
    await call('PUT', `/api/client/wishlist/${copy}`, other.cookie);

    expect((await restock(copy, 5)).statusCode).toBe(200);
    // More stock on a copy already in stock is not "back".
    expect((await restock(copy, 9)).statusCode).toBe(200);

    const mine = await notices(me.cookie);
    expect(mine.unread).toBe(1);
    expect(mine.notices).toEqual([
      {
        id: expect.any(Number),
        kind: 'back_in_stock',
        bookCopyId: copy,
        bookName: expect.any(String),
        message: expect.stringMatching(/ is back in stock\.$/),
        createdAt: expect.any(String),
        read: false,
      },
    ]);
    expect((await notices(other.cookie)).unread).toBe(1);
    expect((await notices(bystander.cookie)).unread).toBe(0);
    const outbox = await t.db.query<{ client_id: number }>(
      "SELECT client_id FROM mail_outbox WHERE kind = 'back_in_stock' AND copy_id = $1 AND sent_at IS NULL ORDER BY client_id",
      [copy],
    );
    expect(outbox.map((o) => o.client_id)).toEqual([me.id, other.id].sort((x, y) => x - y));

    expect((await call('POST', '/api/client/notices/read', me.cookie)).statusCode).toBe(200);
    expect(await notices(me.cookie)).toMatchObject({ unread: 0, notices: [{ read: true }] });
    expect((await notices(other.cookie)).unread).toBe(1);
  });

  it('closing the bell reads the notices it showed: one written while it was open stays unread', async () => {
    const me = await newClient();
    const [first, second] = [await soldOutCopy(), await soldOutCopy()];
    for (const copy of [first, second]) await call('PUT', `/api/client/wishlist/${copy}`, me.cookie);
    await restock(first, 2, true);
    const shown = (await notices(me.cookie)).notices as { id: number }[];
    await restock(second, 2, true); // while the bell is open
    expect((await call('POST', `/api/client/notices/read?upTo=${shown[0]!.id}`, me.cookie)).statusCode).toBe(200);
    expect(await notices(me.cookie)).toMatchObject({ unread: 1, notices: [{ read: false }, { read: true }] });
    for (const upTo of ['0', '2147483648', '99999999999999999999999']) {
      expect((await call('POST', `/api/client/notices/read?upTo=${upTo}`, me.cookie)).statusCode).toBe(400);
    }
  });

  it('more unread notices than the bell shows: it lists the newest unread first, and closing it leaves the rest unread for the next look', async () => {
    const me = await newClient();
    const copies = [];
    for (let i = 0; i < 22; i++) copies.push(await soldOutCopy());
    // Two read long ago, then 22 unread, oldest first.
    await t.db.query(
      `INSERT INTO notices (client_id, book_copy_id, created_at, read_at) SELECT $1, c, now() - interval '1 day', now() FROM unnest($2::int[]) AS c`,
      [me.id, copies.slice(0, 2)],
    );
    await t.db.query(
      `INSERT INTO notices (client_id, book_copy_id, created_at)
       SELECT $1, c, now() - (23 - n) * interval '1 minute' FROM unnest($2::int[]) WITH ORDINALITY AS u(c, n)`,
      [me.id, copies],
    );
    const bell = await notices(me.cookie);
    expect(bell.unread).toBe(22);
    const shown = bell.notices as { id: number; bookCopyId: number; read: boolean }[];
    expect(shown.map((n) => n.bookCopyId)).toEqual(copies.slice(2).reverse());
    expect(shown.every((n) => !n.read)).toBe(true);
    const ids = shown.map((n) => n.id);
    const read = await call('POST', `/api/client/notices/read?upTo=${Math.max(...ids)}&from=${Math.min(...ids)}`, me.cookie);
    expect(read.statusCode).toBe(200);

    const next = await notices(me.cookie);
    expect(next.unread).toBe(2);
    expect(next.notices.slice(0, 3).map((n: { bookCopyId: number; read: boolean }) => [n.bookCopyId, n.read])).toEqual([
      [copies[1], false],
      [copies[0], false],
      [copies[21], true],
    ]);
  });

  it('a copy withdrawn and put back on sale is back too; sold out and back again, it notifies again once the last notice is read, and e-mails once a day', async () => {
    const me = await newClient();
    const copy = await soldOutCopy();
    await call('PUT', `/api/client/wishlist/${copy}`, me.cookie);
    await restock(copy, 4, false); // stock, but not on sale: not back yet
    expect((await notices(me.cookie)).unread).toBe(0);
    await restock(copy, 4, true);
    expect((await notices(me.cookie)).unread).toBe(1);
    // Sold out and back while that notice is unread: no second one piles up.
    await restock(copy, 0, true);
    await restock(copy, 2, true);
    expect((await notices(me.cookie)).unread).toBe(1);
    await call('POST', '/api/client/notices/read', me.cookie);
    // Read, and sold out and back within the day (an order of all of it, cancelled, say): a notice, but no second e-mail.
    await restock(copy, 0, true);
    await restock(copy, 2, true);
    expect(await notices(me.cookie)).toMatchObject({ unread: 1, notices: [{ read: false }, { read: true }] });
    const mails = () =>
      t.db.query("SELECT 1 FROM mail_outbox WHERE kind = 'back_in_stock' AND copy_id = $1 AND client_id = $2", [copy, me.id]);
    expect(await mails()).toHaveLength(1);
    // A day after the last notice, it e-mails again.
    await call('POST', '/api/client/notices/read', me.cookie);
    await t.db.query("UPDATE notices SET created_at = created_at - interval '25 hours' WHERE client_id = $1", [me.id]);
    await restock(copy, 0, true);
    await restock(copy, 2, true);
    expect(await notices(me.cookie)).toMatchObject({ unread: 1, notices: [{ read: false }, { read: true }, { read: true }] });
    expect(await mails()).toHaveLength(2);
  });

  it("counts the e-mail's day in UTC whatever the session's time zone (a DBA's restock from psql, say)", async () => {
    const me = await newClient();
    const copy = await soldOutCopy();
    await call('PUT', `/api/client/wishlist/${copy}`, me.cookie);
    await restock(copy, 2, true);
    await call('POST', '/api/client/notices/read', me.cookie);
    // Told 20 hours ago; a session 14 hours ahead of UTC would read that as 34.
    await t.db.query("UPDATE notices SET created_at = created_at - interval '20 hours' WHERE client_id = $1", [me.id]);
    const dba = new pg.Client({ connectionString: t.db.url });
    await dba.connect();
    try {
      await dba.query("SET TimeZone = 'Pacific/Kiritimati'");
      await dba.query('UPDATE book_copies SET quantity = 0 WHERE id = $1', [copy]);
      await dba.query('UPDATE book_copies SET quantity = 3 WHERE id = $1', [copy]);
    } finally {
      await dba.end();
    }
    const mails = await t.db.query("SELECT 1 FROM mail_outbox WHERE kind = 'back_in_stock' AND copy_id = $1 AND client_id = $2", [
      copy,
      me.id,
    ]);
    expect(mails).toHaveLength(1);
    expect((await notices(me.cookie)).unread).toBe(1);
  });

  it('a restock that rolls back writes no notice; the same restock committed writes one', async () => {
    const me = await newClient();
    const copy = await soldOutCopy();
    await call('PUT', `/api/client/wishlist/${copy}`, me.cookie);
    // The restock's update in a transaction that rolls back, as a failed restock would.
    const client = new pg.Client({ connectionString: t.db.url });
    await client.connect();
    await client.query('BEGIN');
    await client.query('UPDATE book_copies SET quantity = 3 WHERE id = $1', [copy]);
    await client.query('ROLLBACK');
    expect((await notices(me.cookie)).unread).toBe(0);
    await client.query('BEGIN');
    await client.query('UPDATE book_copies SET quantity = 3 WHERE id = $1', [copy]);
    await client.query('COMMIT');
    await client.end();
    expect((await notices(me.cookie)).unread).toBe(1);
  });
});

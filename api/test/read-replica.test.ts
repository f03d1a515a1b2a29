// DATABASE_REPLICA_URL: the public catalog reads from the replica (app.catalogSql), everything
// else, writes included, from the primary. The "replica" here is a second
// database that differs from the primary on purpose, so each answer shows where it was read.
import { beforeAll, expect, it } from 'vitest';
import { createCopy } from './fault-helpers.ts';
import { createTestApp, createTestDatabase, DEMO, type TestApp } from './helpers.ts';

let t: TestApp;
let replica: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  replica = await createTestDatabase();
  await replica.query("UPDATE book_types SET name = 'Read From The Replica' WHERE id = 1");
  t = await createTestApp({ env: { DATABASE_REPLICA_URL: replica.url } });
});

it('every catalog read comes from the replica', async () => {
  const types = (await t.app.inject('/api/public/book-copy/types/')).json().data as { id: number; name: string }[];
  expect(types.find((type) => type.id === 1)?.name).toBe('Read From The Replica');
  const page = await t.app.inject('/api/public/book-copy/by-type/Read From The Replica,1,5');
  expect(page.statusCode, page.body).toBe(200);
  expect(page.json().data.booksCopies.length).toBeGreaterThan(0);
  expect((await t.app.inject(`/api/public/book-copy/by-type/${encodeURIComponent(types[1]!.name)},1,5`)).statusCode).toBe(200);
});

it('writes, and the reads that must see them, go to the primary only', async () => {
  const copy = await createCopy(t.db.query, 3);
  await replica.query('INSERT INTO book_copies (id, book_id, quantity, price) VALUES ($1, 1, 3, 10.50)', [copy]);
  const cookie = await t.login(DEMO.client);
  const line = (await t.app.inject({ method: 'POST', url: `/api/client/cart/${copy}`, headers: { cookie } })).json().data;
  const cart = (await t.app.inject({ url: '/api/client/cart', headers: { cookie } })).json().data as { id: number }[];
  expect(cart.map((l) => l.id)).toContain(line);
  const order = await t.checkout(cookie, { totalPrice: 10.5, totalQuantity: 1, cartItemsIds: [line] });
  expect(order.statusCode, order.body).toBe(200);
  const orderId = order.json().data.id;
  expect(await t.db.query('SELECT id FROM orders WHERE id = $1', [orderId])).toHaveLength(1);
  expect(await replica.query('SELECT id FROM orders WHERE id = $1', [orderId])).toHaveLength(0);
  expect(await replica.query('SELECT id FROM cart_items WHERE id = $1', [line])).toHaveLength(0);
  expect((await t.db.query<{ quantity: number }>('SELECT quantity FROM book_copies WHERE id = $1', [copy]))[0]!.quantity).toBe(2);
  expect((await replica.query<{ quantity: number }>('SELECT quantity FROM book_copies WHERE id = $1', [copy]))[0]!.quantity).toBe(3);
  // The catalog, read from the replica, still shows the replica's stock (a lagging replica's view).
  expect((await t.app.inject(`/api/public/book-copy/by-id/${copy}`)).json().data.quantity).toBe(3);
});

it('without DATABASE_REPLICA_URL the catalog reads the primary', async () => {
  const plain = await createTestApp();
  const types = (await plain.app.inject('/api/public/book-copy/types/')).json().data as { id: number; name: string }[];
  expect(types.find((type) => type.id === 1)?.name).not.toBe('Read From The Replica');
  expect((await plain.app.inject('/api/public/book-copy/by-type/Read From The Replica,1,5')).statusCode).toBe(404);
});

// Input that never reaches the database unchecked: each named input of the fuzz test's findings gets a
// clear 400 (or 409/422) with a readable message, LIKE patterns match literally, and database errors
// that input causes answer 400 while a genuine bug still answers 500.
import { Writable } from 'node:stream';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { isCausedByInput } from '../src/lib/input-errors.ts';
import { createTestApp, createTestDatabase, DEMO, incompressibleLetters, type TestApp } from './helpers.ts';

let t: TestApp;
let admin: string;
let client: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(DEMO.admin);
  client = await t.login(DEMO.client);
});

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const call = (method: Method, url: string, cookie?: string, payload?: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, headers: { ...(cookie ? { cookie } : {}), ...headers }, payload: payload as object });

/** Asserts a refusal in the `{ data: null, error }` shape, and returns its message. */
async function refused(
  response: Promise<{ statusCode: number; json(): { data: unknown; error: { code: string; message: string } } }>,
  status = 400,
) {
  const res = await response;
  const body = res.json();
  expect(res.statusCode, JSON.stringify(body)).toBe(status);
  expect(body.data).toBeNull();
  expect(body.error.message).toMatch(/^[A-Z].{10,}/);
  return body.error;
}

describe('numbers in paths and queries are plain decimal integers within their bounds', () => {
  const odd = ['Infinity', '-Infinity', '1e309', '1e21', '-0', '0x10', '1.5', '%201', '1%20', '+1', '01', '1e2', 'NaN'];

  it.each(odd)('by-id/%s is a 400', async (id) => {
    const error = await refused(call('GET', `/api/public/book-copy/by-id/${id}`));
    expect(error.message).toMatch(/id/);
  });

  it.each(odd)('the comma-split page parameters refuse %s (pageNumber and pageSize)', async (value) => {
    await refused(call('GET', `/api/public/book-copy/by-type/Fantasy,1,${value}`));
    await refused(call('GET', `/api/public/book-copy/by-type/Fantasy,${value},10`));
  });

  it('answers the right page for well-written numbers', async () => {
    const res = await call('GET', '/api/public/book-copy/by-type/Fantasy,2,10');
    expect(res.statusCode).toBe(200);
    expect(res.json().data.booksCopies).toHaveLength(10);
  });

  it.each(['1e21', 'Infinity', '-1e309', '0x10', '1e300'])('a query parameter of %s is a 400', async (value) => {
    const error = await refused(call('GET', `/api/employee/statistics/clients/?pageNumber=${value}`, admin));
    expect(error.message).toMatch(/pageNumber: must be a whole number/);
  });

  it.each(['Infinity,Shipped', '1e309,Shipped', '-0,Shipped'])('set-status/%s is a 400', async (segment) => {
    await refused(call('PUT', `/api/employee/order/set-status/${segment}`, admin));
  });

  it('a number in a body that ajv would coerce from "Infinity" is a 400', async () => {
    const error = await refused(call('PUT', '/api/client/cart', client, { cartItemId: 'Infinity', quantity: 1 }));
    expect(error.message).toMatch(/finite/);
    await refused(
      t.app.inject({
        method: 'PUT',
        url: '/api/client/cart',
        headers: { cookie: client, 'content-type': 'application/json' },
        payload: '{"cartItemId":1e309,"quantity":1}',
      }),
    );
  });
});

describe('no NUL character in any string', () => {
  it('in a body', async () => {
    const error = await refused(call('POST', '/api/public/contact', undefined, { userName: 'A\u0000', account: 'a@b.co', message: 'Hi' }));
    expect(error.message).toMatch(/NUL/);
  });
  it('in a nested body field and a body key', async () => {
    await refused(call('POST', '/api/public/sign-up', undefined, { account_informations: { account: 'a\u0000@b.co', password: 'x' } }));
    await refused(call('POST', '/api/public/contact', undefined, { 'user\u0000Name': 'A', account: 'a@b.co', message: 'Hi' }));
  });
  it('in a path parameter', async () => {
    expect((await refused(call('GET', '/api/public/book-copy/by-name/harry%00potter'))).message).toMatch(/NUL/);
    await refused(call('GET', '/api/public/book-copy/by-type/Fantasy%00,1,10'));
    await refused(call('POST', '/api/employee/author/A%00B', admin));
  });
  it('in a query parameter', async () => {
    expect((await refused(call('GET', '/api/employee/contact/?pageSize=10&x=%00', admin))).message).toMatch(/NUL/);
  });
  it('in a declared header', async () => {
    const order = { shipmentAddress: '12 Main Street', totalPrice: 1, totalQuantity: 1, cartItemsIds: [1] };
    await refused(call('POST', '/api/client/orders/', client, order, { 'idempotency-key': 'key\u0000' }));
  });
});

describe('LIKE patterns match literally', () => {
  beforeAll(async () => {
    await t.db.query(`INSERT INTO authors (full_name) VALUES ('Ann 100% Real'), ('Bob_Underscore'), ('Cy Back\\slash')`);
  });

  it.each(['Fantasy\\', 'Fant%', 'F_ntasy', '%', '_', '\\'])('category %s is not found (no 500, no wildcard)', async (name) => {
    await refused(call('GET', `/api/public/book-copy/by-type/${encodeURIComponent(name)},1,10`), 404);
  });

  it('a category still matches in any letter case', async () => {
    const res = await call('GET', '/api/public/book-copy/by-type/fANTASY,1,10');
    expect(res.statusCode).toBe(200);
  });

  it.each([
    ['%', ['Ann 100% Real']],
    ['_', ['Bob_Underscore']],
    ['\\', ['Cy Back\\slash']],
    ['k\\s', ['Cy Back\\slash']],
    ['0%', ['Ann 100% Real']],
  ])('the author search for %s finds only names containing it', async (text, names) => {
    const res = await call('GET', `/api/employee/author/by-name/${encodeURIComponent(text)}`, admin);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((a: { fullName: string }) => a.fullName)).toEqual(names);
  });

  it.each(['%', '_', '\\', 'a\\'])('the book search for %s finds only names containing it', async (text) => {
    const res = await call('GET', `/api/employee/book/by-name/${encodeURIComponent(text)}`, admin);
    expect(res.statusCode).toBe(200);
    for (const book of res.json().data as { name: string }[]) expect(book.name).toContain(text);
  });
});

describe('impossible dates are refused, never rolled over', () => {
  const impossible = ['2023-02-31', '2023-04-31', '0000-01-01', '10000-01-01', '2023-13-01', '2023-00-10', '2023-1-1', '+002023-01-01'];

  it.each(impossible)('book publishedAt %s is a 400', async (publishedAt) => {
    const error = await refused(call('PUT', '/api/employee/book/', admin, { id: 1, publishedAt }));
    expect(error.message).toMatch(/real date/);
  });

  it('real dates are kept as written, leap days and year 1 included', async () => {
    for (const publishedAt of ['2024-02-29', '0001-01-01', '1605-01-01']) {
      const res = await call('PUT', '/api/employee/book/', admin, { id: 1, publishedAt });
      expect(res.statusCode).toBe(200);
      expect(res.json().data.publishedAt).toBe(publishedAt);
    }
  });

  it.each([...impossible, '1899-12-31', '2999-01-01'])('employee birthDate %s is a 400', async (birthDate) => {
    const me = (await call('GET', '/api/employee/employee/', admin)).json().data;
    const { firstName, lastName, gender, email, phoneNumber, address } = me;
    const error = await refused(
      call('PUT', '/api/employee/', admin, { firstName, lastName, gender, email, phoneNumber, address, birthDate }),
    );
    expect(error.message).toMatch(/Birth date must be a real past date/);
  });
});

describe('totals that a column cannot hold', () => {
  const newCopy = async (price: number, quantity: number) => {
    const res = await call('POST', '/api/employee/book-copy/', admin, { bookId: 1, quantity, price, isAvailable: true });
    expect(res.statusCode).toBe(200);
    return res.json().data.id as number;
  };
  const addToCart = async (copyId: number, quantity: number) => {
    const res = await call('POST', `/api/client/cart/${copyId}`, client);
    expect(res.statusCode).toBe(200);
    const cartItemId = res.json().data as number;
    return { cartItemId, update: call('PUT', '/api/client/cart', client, { cartItemId, quantity }) };
  };

  it('a cart line worth more than an order can total is a 409', async () => {
    const copy = await newCopy(99999999, 1000000);
    const { update } = await addToCart(copy, 100000);
    const error = await refused(update, 409);
    expect(error.code).toBe('ORDER_TOO_LARGE');
  });

  it('a checkout whose total would overflow orders.total_price is a 409, and nothing is taken', async () => {
    const lines = [];
    for (const copy of [await newCopy(99999999, 60), await newCopy(99999999, 60)]) {
      const { cartItemId, update } = await addToCart(copy, 60);
      expect((await update).statusCode).toBe(200);
      lines.push(cartItemId);
    }
    const order = { shipmentAddress: '12 Main Street', totalPrice: 2 * 60 * 99999999, totalQuantity: 120, cartItemsIds: lines };
    const error = await refused(call('POST', '/api/client/orders/', client, order), 409);
    expect(error.code).toBe('ORDER_TOO_LARGE');
    await Promise.all(lines.map((id) => call('DELETE', `/api/client/cart/${id}`, client)));
  });
});

describe('Idempotency-Key', () => {
  it('reused with a different body is a 422, with the same body the first order', async () => {
    const copy = (await call('POST', '/api/employee/book-copy/', admin, { bookId: 2, quantity: 5, price: 12.5, isAvailable: true })).json()
      .data.id;
    const cartItemId = (await call('POST', `/api/client/cart/${copy}`, client)).json().data;
    const key = `key-${Date.now()}`;
    const body = { shipmentAddress: '12 Main Street', totalPrice: 12.5, totalQuantity: 1, cartItemsIds: [cartItemId] };
    const first = await call('POST', '/api/client/orders/', client, body, { 'idempotency-key': key });
    expect(first.statusCode).toBe(200);
    const again = await call('POST', '/api/client/orders/', client, { ...body }, { 'idempotency-key': key });
    expect(again.json().data.id).toBe(first.json().data.id);
    const error = await refused(
      call('POST', '/api/client/orders/', client, { ...body, shipmentAddress: '99 Other Road' }, { 'idempotency-key': key }),
      422,
    );
    expect(error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });
});

describe('path parameters as long as the schemas allow', () => {
  it('an author name of 300 four-byte characters is added and renamed (not 414)', async () => {
    const name = '𝔄'.repeat(300);
    const added = await call('POST', `/api/employee/author/${encodeURIComponent(name)}`, admin);
    expect(added.statusCode, added.body).toBe(200);
    const renamed = await call('PUT', `/api/employee/author/${added.json().data.id},${encodeURIComponent(`${'𝔅'.repeat(299)},`)}`, admin);
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().data.fullName).toBe(`${'𝔅'.repeat(299)},`);
  });

  it('a search of 200 characters is served; 201 is a 400 and a huge one a 414, both in the error shape', async () => {
    expect((await call('GET', `/api/public/book-copy/by-name/${encodeURIComponent('é'.repeat(200))}`)).statusCode).toBe(200);
    await refused(call('GET', `/api/public/book-copy/by-name/${'a'.repeat(201)}`));
    const error = await refused(call('GET', `/api/public/book-copy/by-name/${'a'.repeat(5000)}`), 414);
    expect(error.message).toMatch(/too long/);
  });

  it('a malformed percent-encoding is a 400 in the error shape', async () => {
    await refused(call('GET', '/api/public/book-copy/by-name/%zz'));
  });
});

describe('database errors caused by input are a 400 logged at warn; a bug is still a 500 logged at error', () => {
  let app: Awaited<ReturnType<typeof buildApp>>;
  const logs: { level: number; msg: string }[] = [];
  beforeAll(async () => {
    const db = await createTestDatabase();
    const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: db.url, FIREBASE_AUTH_EMULATOR_HOST: inject('emulatorHost') });
    const stream = new Writable({
      write(chunk, _encoding, done) {
        logs.push(JSON.parse(String(chunk)));
        done();
      },
    });
    app = await buildApp(config, { logger: { level: 'warn', stream } });
    // Routes that hand the database what the route checks would have stopped, to test the backstop alone.
    app.get('/api/test/nul', () => app.prisma.$queryRaw`SELECT ${'a\u0000b'}::text`);
    app.get('/api/test/like', () => app.prisma.bookType.findFirst({ where: { name: { equals: 'a\\', mode: 'insensitive' } } }));
    app.get('/api/test/overflow', () => app.prisma.$queryRaw`SELECT ${'1e20'}::numeric(12, 2)`);
    app.get('/api/test/year-zero', () => app.prisma.$queryRaw`SELECT ${'0000-01-01'}::date`);
    app.get('/api/test/not-finite', () => app.prisma.author.findUnique({ where: { id: Number.POSITIVE_INFINITY } }));
    app.get('/api/test/bug', () => app.prisma.$queryRawUnsafe('SELECT * FROM no_such_table'));
    await app.ready();
    return () => app.close();
  });

  it.each(['nul', 'like', 'overflow', 'year-zero', 'not-finite'])('%s: 400 INVALID_INPUT, warn, no SQL in the body', async (name) => {
    logs.length = 0;
    const res = await app.inject({ method: 'GET', url: `/api/test/${name}` });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.code).toBe('INVALID_INPUT');
    // Everything but the request's id (a random UUID, which can hold '22' and three digits by chance).
    const { requestId: _id, ...error } = res.json().error;
    expect(JSON.stringify(error)).not.toMatch(/SELECT|invalid|Prisma|22\d\d\d/);
    expect(logs.map((l) => [l.level, l.msg])).toContainEqual([40, 'input refused by the database']);
    expect(logs.some((l) => l.level >= 50)).toBe(false);
  });

  it('a genuine bug: 500 INTERNAL, logged as an error, no SQL in the body', async () => {
    logs.length = 0;
    const res = await app.inject({ method: 'GET', url: '/api/test/bug' });
    expect(res.statusCode).toBe(500);
    expect(res.json().error.code).toBe('INTERNAL');
    expect(res.body).not.toMatch(/no_such_table|SELECT/);
    expect(logs.some((l) => l.level === 50)).toBe(true);
  });
});

describe('a value too large for an index', () => {
  it('is bad input (400), where the same code for something a statement built too large stays a fault', async () => {
    const name = incompressibleLetters(3000);
    const tooLong = await t.app.prisma.$executeRawUnsafe('INSERT INTO authors (full_name) VALUES ($1)', name).catch((e: unknown) => e);
    expect(isCausedByInput(tooLong)).toBe(true);
    const built = await t.app.prisma.$queryRawUnsafe("SELECT repeat('x', 1100000000)").catch((e: unknown) => e);
    expect(built).toBeInstanceOf(Error);
    expect(isCausedByInput(built)).toBe(false);
  });
});

// The spec's own web client calls exactly the spec's section 7 API; these tests call it the same way:
// never-null fields, the unpaged client and message lists, extra properties, a frontend on another
// site, sign-up with the spec's body alone, and a refresh that races itself.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { SIGN_UP_CREDENTIALS_REFUSED } from '../src/plugins/identity.ts';
import { cookieHeader, createProviderAccount, createTestApp, DEMO, type TestApp } from './helpers.ts';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(DEMO.admin);
});
const get = (url: string, cookie = '') => t.app.inject({ method: 'GET', url, headers: { cookie } });

/** Every path under `value` whose value is null: a field the spec lists is never null. */
function nullPaths(value: unknown, path = '$'): string[] {
  if (value === null) return [path];
  if (Array.isArray(value)) return value.flatMap((v, i) => nullPaths(v, `${path}[${i}]`));
  if (typeof value === 'object') return Object.entries(value as object).flatMap(([k, v]) => nullPaths(v, `${path}.${k}`));
  return [];
}

/** What a client of the spec does with every image URL (spec 9); it throws on anything but a string. */
const upgrade = (imageUrl: unknown) => (imageUrl as string).replace('http://', 'https://');

describe('imageUrl is never null, in every shape the spec lists it', () => {
  let coverless: { copyId: number; title: string };
  beforeAll(async () => {
    const [row] = await t.db.query<{ id: number; name: string }>(
      'SELECT c.id, b.name FROM book_copies c JOIN books b ON b.id = c.book_id WHERE b.image_url IS NULL AND c.is_available AND c.quantity > 5 ORDER BY c.id LIMIT 1',
    );
    expect(row, 'the seed has books without a cover').toBeDefined();
    coverless = { copyId: row!.id, title: row!.name };
  });

  it('every card of every page of every category, and every home list, has no null field', async () => {
    const types = (await get('/api/public/book-copy/types/')).json().data as { name: string }[];
    let cards = 0;
    for (const { name } of types) {
      for (let page = 1, totalPages = 1; page <= totalPages; page++) {
        const body = (await get(`/api/public/book-copy/by-type/${name},${page},100`)).json().data;
        totalPages = body.totalPages;
        expect(nullPaths(body)).toEqual([]);
        for (const card of body.booksCopies) upgrade(card.imageUrl);
        cards += body.booksCopies.length;
      }
    }
    const [{ n }] = (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM book_copies WHERE is_available')) as [{ n: number }];
    expect(cards).toBe(n);
    for (const list of ['new-releases', 'recommended', 'best-sellers', 'top-rated']) {
      expect(nullPaths((await get(`/api/public/book-copy/${list}/`)).json())).toEqual([]);
    }
  });

  it('a book without a cover gets a drawn SVG cover with its title, in detail and search', async () => {
    const detail = (await get(`/api/public/book-copy/by-id/${coverless.copyId}`)).json().data;
    expect(nullPaths(detail)).toEqual([]);
    expect(detail.imageUrl).toMatch(/^data:image\/svg\+xml/);
    const svg = decodeURIComponent(detail.imageUrl.slice(detail.imageUrl.indexOf(',') + 1));
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    // Long titles are wrapped and cut, so look for its first word.
    expect(svg).toContain(coverless.title.split(/\s+/)[0]!.replace(/&/g, '&amp;').replace(/'/g, '&#39;'));
    expect(upgrade(detail.imageUrl)).toBe(detail.imageUrl);

    const results = (await get(`/api/public/book-copy/by-name/${encodeURIComponent(coverless.title)}`)).json().data as object[];
    expect(results.length).toBeGreaterThan(0);
    expect(nullPaths(results)).toEqual([]);
  });

  it('escapes a title as XML, so a drawn cover is always a well-formed, inert image', async () => {
    await t.db.query('UPDATE books SET name = \'<script>alert(1)</script> & "Co"\', image_url = NULL WHERE id = 7');
    const [copy] = await t.db.query<{ id: number }>('SELECT id FROM book_copies WHERE book_id = 7 AND is_available LIMIT 1');
    const detail = (await get(`/api/public/book-copy/by-id/${copy!.id}`)).json().data;
    const svg = decodeURIComponent(detail.imageUrl.slice(detail.imageUrl.indexOf(',') + 1));
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('in cart lines, and in the back-office order items', async () => {
    const client = await t.login(DEMO.client);
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/client/cart/${coverless.copyId}`, headers: { cookie: client } })).statusCode,
    ).toBe(200);
    const cart = (await get('/api/client/cart', client)).json().data as { id: number; totalPrice: number; totalQuantity: number }[];
    expect(nullPaths(cart)).toEqual([]);
    const order = await t.app.inject({
      method: 'POST',
      url: '/api/client/orders/',
      headers: { cookie: client },
      payload: {
        shipmentAddress: '12 Rue Didouche Mourad, Algiers',
        totalPrice: cart.reduce((sum, l) => sum + l.totalPrice * l.totalQuantity, 0),
        totalQuantity: cart.reduce((sum, l) => sum + l.totalQuantity, 0),
        cartItemsIds: cart.map((l) => l.id),
      },
    });
    expect(order.statusCode, order.body).toBe(200);
    const orders = (await get('/api/employee/order/1,5', admin)).json().data.orders as { id: number }[];
    expect(orders[0]!.id).toBe(order.json().data.id);
    expect(nullPaths(orders)).toEqual([]);
  });
});

describe('All Clients and Client Messages as the spec writes the calls', () => {
  it('answer the bare array, newest first, with the count in a header', async () => {
    for (const [url, table] of [
      ['/api/employee/statistics/clients/', 'clients'],
      ['/api/employee/contact/', 'contact_messages'],
    ] as const) {
      const res = await get(url, admin);
      expect(res.statusCode).toBe(200);
      const rows = res.json().data as { id: number; createdAt: string }[];
      expect(Array.isArray(rows)).toBe(true);
      const [{ n }] = (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)) as [{ n: number }];
      expect(rows.length).toBe(Math.min(n, 1000));
      expect(Number(res.headers['x-total-count'])).toBe(n);
      expect(res.headers['x-list-truncated']).toBeUndefined();
      const times = rows.map((r) => Date.parse(r.createdAt));
      expect(times).toEqual([...times].sort((a, b) => b - a));
      expect(nullPaths(rows)).toEqual([]);
    }
  });

  it('with paging parameters answer the paged object the back-office reads', async () => {
    const clients = (await get('/api/employee/statistics/clients/?pageNumber=2&pageSize=7', admin)).json().data;
    expect(clients.clients).toHaveLength(7);
    const [{ n }] = (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM clients')) as [{ n: number }];
    expect(clients.totalPages).toBe(Math.ceil(n / 7));
    const messages = (await get('/api/employee/contact/?pageSize=3', admin)).json().data;
    expect(messages.messages.length).toBeLessThanOrEqual(3);
    expect(typeof messages.totalPages).toBe('number');
  });

  it('say so in a header above the cap of 1,000 rows', async () => {
    await t.db.query(
      "INSERT INTO contact_messages (user_name, account, message) SELECT 'Bulk', 'bulk@example.com', 'm' || g FROM generate_series(1, 1001) g",
    );
    const res = await get('/api/employee/contact/', admin);
    expect(res.json().data).toHaveLength(1000);
    expect(res.headers['x-list-truncated']).toBe('true');
    expect(Number(res.headers['x-total-count'])).toBeGreaterThan(1000);
  });

  it('are still the Admin’s alone', async () => {
    expect((await get('/api/employee/contact/', await t.login(DEMO.seller))).statusCode).toBe(403);
    expect((await get('/api/employee/statistics/clients/')).statusCode).toBe(401);
  });
});

describe('extra properties are stripped, never a 500 and never written', () => {
  it("accepts the spec client's {...copy, Id} on the book-copy update and writes only the named fields", async () => {
    const [copy] = await t.db.query<{ id: number; book_id: number; units_sold: number }>(
      'SELECT id, book_id, units_sold FROM book_copies WHERE units_sold > 0 ORDER BY id LIMIT 1',
    );
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/employee/book-copy/',
      headers: { cookie: admin },
      payload: {
        id: copy!.id,
        bookId: copy!.book_id,
        quantity: 12,
        price: 9.99,
        isAvailable: true,
        Id: copy!.id,
        unitsSold: 0,
        createdAt: '2000-01-01T00:00:00Z',
        orderItems: { deleteMany: {} },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({
      id: copy!.id,
      bookId: copy!.book_id,
      quantity: 12,
      price: 9.99,
      isAvailable: true,
      version: expect.any(Number),
    });
    const [after] = await t.db.query<{ units_sold: number; items: number }>(
      'SELECT units_sold, (SELECT count(*)::int FROM order_items WHERE book_copy_id = $1) AS items FROM book_copies WHERE id = $1',
      [copy!.id],
    );
    expect(after!.units_sold).toBe(copy!.units_sold);
    expect(after!.items).toBeGreaterThan(0);
  });

  it('strips unknown properties on the book-copy create, the contact form and login too', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/employee/book-copy/',
      headers: { cookie: admin },
      payload: { bookId: 1, quantity: 3, price: 5, isAvailable: true, id: 1, unitsSold: 500 },
    });
    expect(created.statusCode, created.body).toBe(200);
    const [row] = await t.db.query<{ units_sold: number }>('SELECT units_sold FROM book_copies WHERE id = $1', [created.json().data.id]);
    expect(row!.units_sold).toBe(0);
    const contact = await t.app.inject({
      method: 'POST',
      url: '/api/public/contact/',
      payload: { userName: 'A', account: 'a@b.co', message: 'Hi', id: 1, createdAt: 'x' },
    });
    expect(contact.statusCode).toBe(200);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/public/authentication/login',
      payload: { ...DEMO.client, role: 'Admin' },
    });
    expect(login.json().data).toBe('Client');
  });
});

describe('a frontend on another site (CORS_ORIGINS)', () => {
  const spa = 'https://spa.example';
  let cross: TestApp;
  beforeAll(async () => {
    cross = await createTestApp({ env: { CORS_ORIGINS: spa } });
  });

  it('answers preflights from the allowed origin only, with credentials', async () => {
    const preflight = (origin: string) =>
      cross.app.inject({
        method: 'OPTIONS',
        url: '/api/client/cart/',
        headers: { origin, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'content-type' },
      });
    const ok = await preflight(spa);
    expect(ok.statusCode).toBe(204);
    expect(ok.headers['access-control-allow-origin']).toBe(spa);
    expect(ok.headers['access-control-allow-credentials']).toBe('true');
    expect(String(ok.headers['access-control-allow-methods'])).toContain('PUT');
    // A versioned save or delete (If-Match) can be sent, and the row's ETag read.
    const versioned = await cross.app.inject({
      method: 'OPTIONS',
      url: '/api/employee/book/1',
      headers: { origin: spa, 'access-control-request-method': 'DELETE', 'access-control-request-headers': 'if-match' },
    });
    expect(String(versioned.headers['access-control-allow-headers'])).toContain('if-match');
    const read = await cross.app.inject({ method: 'GET', url: '/api/public/book-copy/by-id/1', headers: { origin: spa } });
    expect(String(read.headers['access-control-expose-headers'])).toContain('etag');
    const evil = await preflight('https://evil.example');
    expect(evil.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('signs in from that origin with SameSite=None; Secure cookies that carry the session back', async () => {
    const login = await cross.app.inject({
      method: 'POST',
      url: '/api/public/authentication/login',
      headers: { origin: spa },
      payload: DEMO.client,
    });
    expect(login.statusCode).toBe(200);
    expect(login.headers['access-control-allow-origin']).toBe(spa);
    const cookies = login.cookies.filter((c) => c.value);
    expect(cookies.map((c) => c.name).sort()).toEqual(['__Secure-bs_client_at', '__Secure-bs_client_rt', '__Secure-bs_device']);
    for (const c of cookies) expect(c).toMatchObject({ httpOnly: true, secure: true, sameSite: 'None' });
    const me = await cross.app.inject({ method: 'GET', url: '/api/client/manage', headers: { origin: spa, cookie: cookieHeader(login) } });
    expect(me.statusCode).toBe(200);
    expect(me.headers['access-control-allow-origin']).toBe(spa);
  });

  it("answers another site's page calling the API as a stranger: it can neither read a session nor keep it alive", async () => {
    const admin = await cross.app.inject({
      method: 'POST',
      url: '/api/public/authentication/login',
      headers: { origin: spa },
      payload: DEMO.admin,
    });
    const cookie = cookieHeader(admin);
    const family = async () =>
      (
        await cross.db.query<{ last_active_at: Date }>(
          "SELECT last_active_at FROM session_families WHERE audience = 'employee' ORDER BY started_at DESC LIMIT 1",
        )
      )[0]!.last_active_at;
    await cross.db.query("UPDATE session_families SET last_active_at = now() - interval '30 minutes' WHERE audience = 'employee'");
    const idleSince = await family();
    // An <img> on another site: the browser sends the SameSite=None cookies, and says where it came from.
    const embedded = await cross.app.inject({
      method: 'GET',
      url: '/api/employee/second-factor/',
      headers: { cookie, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' },
    });
    expect(embedded.statusCode).toBe(401);
    // A fetch from a site not allowed: its answer is kept from the page, and it is no one's call either.
    const otherSite = await cross.app.inject({
      method: 'GET',
      url: '/api/employee/second-factor/',
      headers: { cookie, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors' },
    });
    expect(otherSite.statusCode).toBe(401);
    expect(await family()).toEqual(idleSince);
    // The frontend's own call (fetch with credentials, CORS) is the session's.
    const own = await cross.app.inject({
      method: 'GET',
      url: '/api/employee/second-factor/',
      headers: { cookie, origin: spa, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors' },
    });
    expect(own.statusCode).toBe(200);
    expect(await family()).not.toEqual(idleSince);
  });

  it('still refuses a state-changing call from any other site', async () => {
    expect((await cross.loginFrom('https://evil.example')).statusCode).toBe(403);
  });

  it('changes nothing without the allowlist: no CORS headers, Strict cookies', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/public/authentication/login', payload: DEMO.client });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    for (const c of res.cookies) expect(c.sameSite).toBe('Strict');
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/client/cart/',
      headers: { origin: spa, 'access-control-request-method': 'PUT' },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe("sign-up with the spec's body alone (no Authorization header)", () => {
  const body = (email: string, password: string) => ({
    firstName: 'Lina',
    lastName: 'Reader',
    phoneNumber: '0771234567',
    account_informations: { account: email, password },
  });
  const signUp = (payload: object) => t.app.inject({ method: 'POST', url: '/api/public/sign-up/', payload });

  it('creates the client once the provider has verified the e-mail, and signs it in', async () => {
    const email = `lina-${randomUUID()}@example.com`;
    await createProviderAccount(email, 'Secret123!', { verify: true });
    const res = await signUp(body(email, 'Secret123!'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toBe('Client');
    const me = await get('/api/client/manage', cookieHeader(res));
    expect(me.json().data).toMatchObject({ firstName: 'Lina', account: email });
    expect((await signUp(body(email, 'Secret123!'))).statusCode).toBe(409);
  });

  it('refuses an unverified e-mail, a wrong provider password and an e-mail the provider does not know', async () => {
    const email = `unverified-${randomUUID()}@example.com`;
    await createProviderAccount(email, 'Secret123!', { verify: false });
    const unverified = await signUp(body(email, 'Secret123!'));
    expect(unverified.statusCode).toBe(403);
    expect(unverified.json().error.message).toBe('Email is not verified yet.');

    const verified = `verified-${randomUUID()}@example.com`;
    await createProviderAccount(verified, 'Secret123!', { verify: true });
    const wrong = await signUp(body(verified, 'Other123!'));
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error.message).toBe(SIGN_UP_CREDENTIALS_REFUSED);
    // An e-mail the provider does not know reads the same: the answers tell no guesser which passwords are right.
    const unknown = await signUp(body(`nobody-${randomUUID()}@example.com`, 'Secret123!'));
    expect([unknown.statusCode, unknown.json().error.message]).toEqual([401, SIGN_UP_CREDENTIALS_REFUSED]);
    // Each wrong guess is a failed sign-in of the account it named, counted by the sign-in throttle.
    const [failed] = await t.db.query<{ n: number }>(
      "SELECT coalesce(sum(count), 0)::int AS n FROM security_events WHERE type = 'login_failed' AND actor = $1",
      [verified],
    );
    expect(failed!.n).toBe(1);
    // A right provider password clears none of the account's failures: anyone may set the provider's
    // password for an e-mail, so it would wipe a guesser's trail on a shop account (here, the unverified one's).
    const failures = async () =>
      (await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM throttle_counters WHERE key LIKE '%:account:' || $1", [email]))[0]!
        .n;
    const wrongLogin = await t.app.inject({
      method: 'POST',
      url: '/api/public/authentication/login',
      payload: { account: email, password: 'Nope-123!' },
    });
    expect(wrongLogin.statusCode).toBe(401);
    expect(await failures()).toBe(1);
    expect((await signUp(body(email, 'Secret123!'))).statusCode).toBe(403);
    expect(await failures()).toBe(1);
    const [{ n }] = (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM clients WHERE account = $1', [verified])) as [
      { n: number },
    ];
    expect(n).toBe(0);
  });
});

describe('a refresh that races itself is not theft', () => {
  const refresh = (cookie: string) =>
    t.app.inject({ method: 'POST', url: '/api/public/authentication/refresh-tokens/Client', headers: { cookie } });
  const refreshCookie = (res: { cookies: { name: string; value: string }[] }) => res.cookies.find((c) => c.name === 'bs_client_rt')?.value;

  it('two refreshes at once with one token both get the same new session, which keeps working', async () => {
    const first = await t.login(DEMO.client);
    const [a, b] = await Promise.all([refresh(first), refresh(first)]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(refreshCookie(a)).toBeDefined();
    expect(refreshCookie(a)).toBe(refreshCookie(b));
    const next = cookieHeader(b, first);
    expect((await get('/api/client/manage', next)).statusCode).toBe(200);
    // A later reuse inside the interval (the slower tab) still gets that session...
    expect(refreshCookie(await refresh(first))).toBe(refreshCookie(a));
    // ...and the new session rotates on as usual.
    const rotated = await refresh(next);
    expect(rotated.statusCode).toBe(200);
    expect((await get('/api/client/manage', cookieHeader(rotated, next))).statusCode).toBe(200);
  });

  it('after the interval, reuse of a spent token still revokes the whole family', async () => {
    const first = await t.login(DEMO.client);
    const next = cookieHeader(await refresh(first), first);
    await t.db.query(
      "UPDATE refresh_tokens SET used_at = now() - interval '31 seconds' WHERE used_at IS NOT NULL AND family_id = (SELECT family_id FROM refresh_tokens ORDER BY created_at DESC LIMIT 1)",
    );
    expect((await refresh(first)).statusCode).toBe(401);
    expect((await get('/api/client/manage', next)).statusCode).toBe(401);
    expect((await refresh(next)).statusCode).toBe(401);
  });
});

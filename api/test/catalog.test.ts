import pg from 'pg';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { CATEGORIES } from '../../seed/seed-data.ts';
import { PURCHASED_CATEGORIES_SQL, searchSql, searchValues } from '../src/modules/catalog/catalog-queries.ts';
import { searchTerms } from '../src/modules/catalog/catalog-service.ts';
import { createTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
const get = (url: string) => t.app.inject({ method: 'GET', url });

describe('public catalog', () => {
  it('lists the ten categories from the database', async () => {
    const res = await get('/api/public/book-copy/types/');
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((t: { name: string }) => t.name)).toEqual(CATEGORIES);
  });

  it('pages a category in any letter case, with the right total pages', async () => {
    const [count] = await t.db.query<{ n: string }>(
      "SELECT count(*) AS n FROM book_copies c JOIN books b ON b.id = c.book_id JOIN book_types t ON t.id = b.type_id WHERE t.name = 'Fantasy' AND c.is_available",
    );
    const res = await get('/api/public/book-copy/by-type/fantasy,2,15');
    expect(res.statusCode).toBe(200);
    const body = res.json().data;
    expect(body.totalPages).toBe(Math.ceil(Number(count!.n) / 15));
    expect(body.booksCopies).toHaveLength(15);
    expect(Object.keys(body.booksCopies[0]).sort()).toEqual(['authorId', 'authorName', 'id', 'imageUrl', 'name', 'price', 'quantity']);
    const upper = (await get('/api/public/book-copy/by-type/FANTASY,2,15')).json().data;
    expect(upper).toEqual(body);
  });

  it('answers an empty page past the end, with the right total', async () => {
    const res = await get('/api/public/book-copy/by-type/Astronomy,99,15');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ booksCopies: [], totalPages: 2 });
  });

  it.each([
    ['page 0', '/api/public/book-copy/by-type/Art,0,15'],
    ['a negative page', '/api/public/book-copy/by-type/Art,-1,15'],
    ['a non-numeric page', '/api/public/book-copy/by-type/Art,abc,15'],
    ['a page size above 100', '/api/public/book-copy/by-type/Art,1,101'],
    ['a missing page size', '/api/public/book-copy/by-type/Art,1'],
  ])('refuses %s with a 400 and a message', async (_, url) => {
    const res = await get(url);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ data: null, error: { message: expect.any(String) } });
  });

  it('answers 404 with a message for an unknown category', async () => {
    const res = await get('/api/public/book-copy/by-type/Cooking,1,15');
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe("There is no category named 'Cooking'.");
  });

  it('gives a rating rounded once to one decimal: 3.949 shows as 3.9, not 3.95 rounded again to 4.0', async () => {
    const [copy] = await t.db.query<{ id: number; book_id: number }>(
      'SELECT c.id, c.book_id FROM book_copies c WHERE c.is_available ORDER BY c.id DESC LIMIT 1',
    );
    await t.db.query('UPDATE books SET ratings_sum = 3949, ratings_count = 1000 WHERE id = $1', [copy!.book_id]);
    const d = (await get(`/api/public/book-copy/by-id/${copy!.id}`)).json().data;
    expect(d).toMatchObject({ averageRating: 3.9, ratingsCount: 1000 });
  });

  it('gives a book copy in detail, with exact ratings and https images', async () => {
    const [row] = await t.db.query<{ id: number; ratings_count: number; shown: string }>(
      `SELECT c.id, b.ratings_count, round(b.ratings_sum::numeric / b.ratings_count, 1)::text AS shown
       FROM book_copies c JOIN books b ON b.id = c.book_id WHERE b.image_url LIKE 'https://%' AND b.ratings_count > 0 LIMIT 1`,
    );
    const res = await get(`/api/public/book-copy/by-id/${row!.id}`);
    expect(res.statusCode).toBe(200);
    const d = res.json().data;
    expect(d).toMatchObject({ id: row!.id, ratingsCount: row!.ratings_count });
    // One decimal, as the storefront shows it, rounded once from the exact average (half up, as numeric's round).
    expect(d.averageRating).toBe(Number(row!.shown));
    expect(d.imageUrl).toMatch(/^https:\/\//);
    for (const key of ['author', 'category', 'description', 'price', 'quantity']) expect(d).toHaveProperty(key);
  });

  it('answers 404 for an unknown or unavailable copy, 400 for a malformed id', async () => {
    expect((await get('/api/public/book-copy/by-id/999999')).statusCode).toBe(404);
    const [withdrawn] = await t.db.query<{ id: number }>(
      "INSERT INTO book_copies (book_id, quantity, price, is_available) VALUES (1, 3, '9.99', false) RETURNING id",
    );
    expect((await get(`/api/public/book-copy/by-id/${withdrawn!.id}`)).statusCode).toBe(404);
    expect((await get('/api/public/book-copy/by-id/abc')).statusCode).toBe(400);
  });

  it('lists and finds only available copies', async () => {
    const [hobbit] = await t.db.query<{ id: number; type: string }>(
      "SELECT c.id, t.name AS type FROM book_copies c JOIN books b ON b.id = c.book_id JOIN book_types t ON t.id = b.type_id WHERE b.name LIKE 'The Hobbit%' LIMIT 1",
    );
    const found = async () => (await get('/api/public/book-copy/by-name/the%20hobbit')).json().data.map((b: { id: number }) => b.id);
    const onFirstPage = async () =>
      (await get(`/api/public/book-copy/by-type/${hobbit!.type},1,100`)).json().data.booksCopies.map((b: { id: number }) => b.id);
    expect(await found()).toContain(hobbit!.id);
    expect(await onFirstPage()).toContain(hobbit!.id);
    await t.db.query('UPDATE book_copies SET is_available = false WHERE id = $1', [hobbit!.id]);
    // Put back whatever the assertions do, for the tests after this one in the file.
    onTestFinished(() => t.db.query('UPDATE book_copies SET is_available = true WHERE id = $1', [hobbit!.id]).then(() => {}));
    expect(await found()).not.toContain(hobbit!.id);
    expect(await onFirstPage()).not.toContain(hobbit!.id);
  });

  it('upgrades http cover URLs to https', async () => {
    const [copy] = await t.db.query<{ id: number }>(
      `WITH book AS (
         INSERT INTO books (name, search_text, author_id, type_id, image_url)
         VALUES ('An Insecure Cover', 'an insecure cover', 1, 1, 'http://example.com/cover.jpg') RETURNING id
       )
       INSERT INTO book_copies (book_id, quantity, price) SELECT id, 1, '5.00' FROM book RETURNING id`,
    );
    expect((await get(`/api/public/book-copy/by-id/${copy!.id}`)).json().data.imageUrl).toBe('https://example.com/cover.jpg');
  });

  it('serves the four home lists', async () => {
    for (const list of ['new-releases', 'recommended', 'best-sellers', 'top-rated']) {
      const res = await get(`/api/public/book-copy/${list}/`);
      expect(res.statusCode, list).toBe(200);
      expect(res.json().data.length, list).toBeGreaterThan(5);
    }
  });

  it('orders New Releases by publication date, Bestsellers by units sold, Top Rated by average', async () => {
    const releases = (await get('/api/public/book-copy/new-releases/')).json().data as { id: number }[];
    const dates = await t.db.query<{ id: number; published_at: Date }>(
      'SELECT c.id, b.published_at FROM book_copies c JOIN books b ON b.id = c.book_id WHERE c.id = ANY($1)',
      [releases.map((r) => r.id)],
    );
    const byId = new Map(dates.map((d) => [d.id, d.published_at.getTime()]));
    const times = releases.map((r) => byId.get(r.id)!);
    expect(times).toEqual([...times].sort((a, b) => b - a));

    const sellers = (await get('/api/public/book-copy/best-sellers/')).json().data as { id: number }[];
    const units = await t.db.query<{ id: number; units_sold: number }>('SELECT id, units_sold FROM book_copies WHERE id = ANY($1)', [
      sellers.map((s) => s.id),
    ]);
    const unitsById = new Map(units.map((u) => [u.id, u.units_sold]));
    const sold = sellers.map((s) => unitsById.get(s.id)!);
    expect(sold).toEqual([...sold].sort((a, b) => b - a));

    const top = (await get('/api/public/book-copy/top-rated/')).json().data as { averageRating: number; ratingsCount: number }[];
    expect(top.every((b) => b.ratingsCount >= 10_000)).toBe(true);
    const avgs = top.map((b) => b.averageRating);
    expect(avgs).toEqual([...avgs].sort((a, b) => b - a));
  });

  it('Recommended leans to the categories a signed-in client has bought from', async () => {
    const clientCookie = await t.app
      .inject({
        method: 'POST',
        url: '/api/public/authentication/login',
        payload: { account: 'client@bookshop.test', password: 'Client123!' },
      })
      .then((r) => r.cookies.map((c) => `${c.name}=${c.value}`).join('; '));
    // Give the demo client a large Astronomy purchase, so Astronomy is their top category.
    await t.db.query(`
      WITH o AS (INSERT INTO orders (client_id, status, shipment_address, total_quantity, total_price)
                 SELECT id, 'delivered', '1 Main Street', 50, 500 FROM clients WHERE account = 'client@bookshop.test' RETURNING id)
      INSERT INTO order_items (order_id, book_copy_id, name, unit_price, quantity)
      SELECT o.id, c.id, b.name, c.price, 50 FROM o, book_copies c JOIN books b ON b.id = c.book_id
      WHERE b.type_id = (SELECT id FROM book_types WHERE name = 'Astronomy') LIMIT 1`);
    const categoryCount = (list: { category: string }[]) => list.filter((b) => b.category === 'Astronomy').length;
    const anonymous = (await get('/api/public/book-copy/recommended/')).json().data;
    const personal = (
      await t.app.inject({ method: 'GET', url: '/api/public/book-copy/recommended/', headers: { cookie: clientCookie } })
    ).json().data;
    expect(categoryCount(personal)).toBeGreaterThan(categoryCount(anonymous));
    expect(new Set(anonymous.map((b: { category: string }) => b.category)).size).toBeGreaterThanOrEqual(8);
  });

  it("Recommended follows a client's last 100 orders: a big old purchase gives way to what they buy now, and a cancelled one counts for nothing", async () => {
    const buyer = await t.newClient();
    const order = (category: string, quantity: number, daysAgo: number, status = 'delivered') =>
      t.db.query(
        `WITH o AS (INSERT INTO orders (client_id, status, shipment_address, total_quantity, total_price, created_at)
                    VALUES ($1, $5, '1 Main Street', $3, 10, (now() AT TIME ZONE 'UTC') - make_interval(days => $4::int)) RETURNING id)
         INSERT INTO order_items (order_id, book_copy_id, name, unit_price, quantity)
         SELECT o.id, c.id, b.name, c.price, $3 FROM o, book_copies c JOIN books b ON b.id = c.book_id
         WHERE b.type_id = (SELECT id FROM book_types WHERE name = $2) LIMIT 1`,
        [buyer.id, category, quantity, daysAgo, status],
      );
    const tastes = async () => (await t.db.query<{ typeId: number }>(PURCHASED_CATEGORIES_SQL, [buyer.id])).map((row) => row.typeId);
    const [astronomy, philosophy] = (
      await t.db.query<{ id: number }>("SELECT id FROM book_types WHERE name IN ('Astronomy', 'Philosophy') ORDER BY name")
    ).map((row) => row.id);
    await order('Astronomy', 500, 365);
    for (let i = 0; i < 99; i++) await order('Philosophy', 1, 10);
    expect(await tastes()).toEqual([astronomy, philosophy]);
    await order('Philosophy', 1, 1);
    expect(await tastes()).toEqual([philosophy]);
    // What was cancelled, or never went through, is no taste: it neither counts nor takes a recent order's place.
    for (const status of ['cancelled', 'failed']) await order('Astronomy', 1000, 0, status);
    expect(await tastes()).toEqual([philosophy]);
  });

  it('sends cache validators on catalog reads and answers 304 to a matching If-None-Match', async () => {
    const first = await get('/api/public/book-copy/types/');
    expect(first.headers['cache-control']).toContain('max-age=60');
    expect(first.headers.etag).toBeTruthy();
    const again = await t.app.inject({
      method: 'GET',
      url: '/api/public/book-copy/types/',
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    const detail = await get('/api/public/book-copy/by-id/1');
    expect(detail.headers['cache-control']).toBe('no-cache');
    expect(detail.headers.etag).toBeTruthy();
  });
});

describe("an author's page", () => {
  /** An author with more books on sale than one page, one of them withdrawn. */
  async function prolificAuthor() {
    const [author] = await t.db.query<{ id: number; name: string; on_sale: number }>(
      `SELECT a.id, a.full_name AS name, count(*)::int AS on_sale FROM authors a JOIN books b ON b.author_id = a.id
       JOIN book_copies c ON c.book_id = b.id AND c.is_available GROUP BY a.id HAVING count(*) > 3 ORDER BY count(*) DESC LIMIT 1`,
    );
    return author!;
  }

  it('lists their books on sale, with the ratings, most-rated first, a page at a time', async () => {
    const author = await prolificAuthor();
    const [withdrawn] = await t.db.query<{ id: number }>(
      `INSERT INTO book_copies (book_id, quantity, price, is_available)
       SELECT id, 1, 5, false FROM books WHERE author_id = $1 LIMIT 1 RETURNING id`,
      [author.id],
    );
    const first = (await get(`/api/public/authors/${author.id}?pageNumber=1&pageSize=3`)).json().data;
    expect(first).toMatchObject({
      id: author.id,
      name: author.name,
      totalBooks: author.on_sale,
      totalPages: Math.ceil(author.on_sale / 3),
    });
    expect(first.books).toHaveLength(3);
    for (const book of first.books) {
      expect(book).toMatchObject({
        authorId: author.id,
        authorName: author.name,
        averageRating: expect.any(Number),
        ratingsCount: expect.any(Number),
      });
    }
    const all = (await get(`/api/public/authors/${author.id}?pageSize=100`)).json().data.books as { id: number; ratingsCount: number }[];
    expect(all).toHaveLength(author.on_sale);
    expect(all.map((b) => b.ratingsCount)).toEqual(all.map((b) => b.ratingsCount).sort((a, b) => b - a));
    expect(all.map((b) => b.id)).not.toContain(withdrawn!.id);
    expect(all.slice(0, 3)).toEqual(first.books);
    const second = (await get(`/api/public/authors/${author.id}?pageNumber=2&pageSize=3`)).json().data;
    expect(second.books).toEqual(all.slice(3, 6));
  });

  it('shows an author with nothing on sale, and refuses one that does not exist', async () => {
    const [idle] = await t.db.query<{ id: number }>("INSERT INTO authors (full_name) VALUES ('Nobody Yet') RETURNING id");
    expect((await get(`/api/public/authors/${idle!.id}`)).json().data).toEqual({
      id: idle!.id,
      name: 'Nobody Yet',
      books: [],
      totalBooks: 0,
      totalPages: 1,
    });
    const missing = await get('/api/public/authors/999999999');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.message).toBe('No author found.');
    for (const url of ['/api/public/authors/0', '/api/public/authors/x', '/api/public/authors/1?pageSize=101']) {
      expect((await get(url)).statusCode, url).toBe(400);
    }
  });

  it("every card and detail names its author's id, so the name can link to the page", async () => {
    const detail = (await get('/api/public/book-copy/by-id/1')).json().data;
    const author = (await get(`/api/public/authors/${detail.authorId}?pageSize=100`)).json().data;
    expect(author.name).toBe(detail.author);
  });
});

describe('search', () => {
  const search = async (text: string) =>
    (await get(`/api/public/book-copy/by-name/${encodeURIComponent(text)}`)).json().data as { name: string; author: string }[];

  it('finds a title despite a typo ("harry poter")', async () => {
    const results = await search('harry poter');
    expect(results.length).toBeGreaterThan(0);
    expect(results[0]!.name).toMatch(/Harry Potter/);
  });

  it('is case- and accent-insensitive and searches authors too', async () => {
    const accented = await search('García Márquez');
    const plain = await search('GARCIA MARQUEZ');
    expect(accented.length).toBeGreaterThan(0);
    expect(plain.map((r) => r.name)).toEqual(accented.map((r) => r.name));
    expect(accented[0]!.author).toMatch(/Garc.a M.rquez/);
  });

  it('ranks an exact phrase first and returns at most 50 results with the fields of spec 2.6', async () => {
    const results = await search('the');
    expect(results.length).toBeLessThanOrEqual(50);
    const [hobbit] = await search('The Hobbit');
    expect(hobbit!.name).toMatch(/^The Hobbit/);
    expect(Object.keys(hobbit!).sort()).toEqual(
      [
        'author',
        'authorName',
        'authorId', // beyond the spec: the link to the author's page
        'averageRating',
        'category',
        'description',
        'id',
        'imageUrl',
        'name',
        'price',
        'quantity',
        'ratingsCount',
      ].sort(),
    );
  });

  it('answers an empty list for nonsense and a 400 for punctuation only', async () => {
    expect(await search('zzqxjv wplk')).toEqual([]);
    expect((await get('/api/public/book-copy/by-name/%21%21%21')).statusCode).toBe(400);
  });

  it("is backed by indexes: the vocabulary for spellings, the books' words for matches (no scan of books)", async () => {
    const terms = searchTerms('harry poter');
    const client = new pg.Client({ connectionString: t.db.url });
    await client.connect();
    await client.query('SET enable_seqscan = off');
    await client.query({ text: `PREPARE search AS ${searchSql(terms)}` });
    const { rows } = await client.query(
      `EXPLAIN EXECUTE search(${searchValues(terms, 50)
        .map((v) => client.escapeLiteral(Array.isArray(v) ? `{${v.join(',')}}` : String(v)))
        .join(', ')})`,
    );
    await client.end();
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(plan).toMatch(/books_search_words_idx/);
    expect(plan).toMatch(/search_vocabulary_word_trgm/);
    expect(plan).not.toMatch(/Seq Scan on books/);
  });

  it('needs every word, forgives a typo only in a word the catalog lacks, and finds a word by its beginning', async () => {
    const names = async (text: string) => (await search(text)).map((r) => r.name);
    expect(await names('harry poter zzqxjv')).toEqual([]);
    // 'hobb' is no catalog word: the words it begins (Hobbit, Hobb) count.
    const hobb = await names('hobb');
    expect(hobb.some((n) => /Hobbit/.test(n))).toBe(true);
    // A typo ('tolkein') ranks its likeliest spelling first; a correct catalog word gets no spellings mixed in.
    expect((await search('tolkein'))[0]!.author).toMatch(/Tolkien/);
    expect((await search('tolkien')).every((r) => /tolkien/i.test(`${r.name} ${r.author}`))).toBe(true);
  });
});

describe('contact form', () => {
  const send = (payload: object) => t.app.inject({ method: 'POST', url: '/api/public/contact/', payload });

  it.each([
    [{ account: 'a@b.co', message: 'Hi' }, 'Name is required'],
    [{ userName: 'Ann', message: 'Hi' }, 'Email is required'],
    [{ userName: 'Ann', account: 'not-an-email', message: 'Hi' }, 'Invalid email format'],
    [{ userName: 'Ann', account: 'a@b.co', message: '  ' }, 'Message is required'],
    [{ userName: 'Ann', account: 'a@b.co', message: 'x'.repeat(51) }, 'Message must be 50 characters or less'],
    // Beyond the spec: a person's name, as on every other form.
    [{ userName: 'A'.repeat(101), account: 'a@b.co', message: 'Hi' }, 'Name must be 100 characters or less'],
  ])('refuses %o with the spec message', async (payload, message) => {
    const res = await send(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(message);
  });

  it('stores a valid message for the back-office', async () => {
    const res = await send({ userName: 'Ann Reader', account: 'ann@example.com', message: 'x'.repeat(50) });
    expect(res.statusCode).toBe(200);
    const rows = await t.db.query<{ user_name: string }>("SELECT user_name FROM contact_messages WHERE account = 'ann@example.com'");
    expect(rows).toEqual([{ user_name: 'Ann Reader' }]);
  });
});

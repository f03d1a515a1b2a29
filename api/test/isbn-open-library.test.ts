// Open Library is someone else's service and cannot be reached here: these tests run the shop's
// real Open Library client against a local stand-in of Open Library's books API.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openLibraryLookup } from '../src/modules/catalog-admin/isbn-lookup.ts';
import { createTestApp, DEMO, incompressibleLetters, type TestApp } from './helpers.ts';

const ENDLESS_ISBN = '9791000000008';

let standIn: Server;
let failing = false;
const requests: string[] = [];
/** Run at each request the stand-in answers, which waits for it: a test's way to make Open Library slow. */
let onLookup: () => void | Promise<void> = () => {};
let t: TestApp;
let admin: string;

beforeAll(async () => {
  standIn = createServer(async (req, res) => {
    requests.push(req.url ?? '');
    await onLookup();
    if (failing) {
      res.writeHead(503).end('down');
      return;
    }
    const isbn = new URL(req.url ?? '', 'http://x').searchParams.get('bibkeys') ?? '';
    const body =
      isbn === 'ISBN:9780553418026'
        ? {
            [isbn]: {
              title: 'The Martian',
              authors: [{ name: 'Andy Weir Stand-in' }],
              subjects: [{ name: 'Mars (Planet)' }, { name: 'Astronomy' }],
              publish_date: 'October 28, 2014',
              number_of_pages: 387,
              cover: { medium: 'http://covers.example/martian.jpg' },
            },
          }
        : isbn === 'ISBN:9781861972712'
          ? { [isbn]: { title: 'Pageless', authors: [{ name: 'Nobody Counted' }], number_of_pages: 0 } }
          : isbn === `ISBN:${ENDLESS_ISBN}`
            ? { [isbn]: { title: `Endless ${incompressibleLetters(3000)}`, authors: [{ name: incompressibleLetters(3000) }] } }
            : {};
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
  const { port } = standIn.address() as AddressInfo;
  t = await createTestApp({ env: { ISBN_LOOKUP: 'openlibrary', OPEN_LIBRARY_URL: `http://127.0.0.1:${port}` } });
  admin = await t.login(DEMO.admin);
});
afterAll(() => new Promise<void>((resolve) => standIn.close(() => resolve())));

const add = (isbn: string) => t.app.inject({ method: 'POST', url: `/api/employee/book/${isbn}`, headers: { cookie: admin } });

describe("adding a book by ISBN with a local stand-in of Open Library's API", () => {
  it('creates the book and its new author from the answer', async () => {
    const res = await add('0553418025'); // the ISBN-10 of 9780553418026
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ name: 'The Martian', pagesNumber: 387, publishedAt: '2014-01-01' });
    expect(requests.at(-1)).toContain('bibkeys=ISBN:9780553418026');
    const [row] = await t.db.query<{ full_name: string; type: string }>(
      'SELECT a.full_name, t.name AS type FROM books b JOIN authors a ON a.id = b.author_id JOIN book_types t ON t.id = b.type_id WHERE b.isbn13 = $1',
      ['9780553418026'],
    );
    expect(row).toEqual({ full_name: 'Andy Weir Stand-in', type: 'Astronomy' });
  });

  it('adds a book whose record gives 0 pages without them (the shop keeps pages above 0; it answered 500)', async () => {
    const res = await add('9781861972712');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ name: 'Pageless', pagesNumber: null });
  });

  it("adds a book whose record's title and author run to thousands of letters with both cut to 300 (the write answered 500)", async () => {
    const res = await add(ENDLESS_ISBN);
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await t.db.query<{ name: string; author: string }>(
      'SELECT b.name, a.full_name AS author FROM books b JOIN authors a ON a.id = b.author_id WHERE b.isbn13 = $1',
      [ENDLESS_ISBN],
    );
    expect([row!.name.length, row!.author.length]).toEqual([300, 300]);
    expect(row!.name.startsWith('Endless ')).toBe(true);
  });

  it('answers 404 for an ISBN Open Library does not know, and 502 (not 500) when it is down', async () => {
    expect((await add('9780000000002')).statusCode).toBe(404);
    failing = true;
    const res = await add('9780306406157');
    expect(res.statusCode).toBe(502);
    expect(res.json().error.message).toMatch(/ISBN service/);
    failing = false;
  });
});

/** The ISBN-13 of a 12-digit start, its check digit computed. */
const withCheckDigit = (start: string) =>
  start + ((10 - ([...start].reduce((sum, digit, i) => sum + Number(digit) * (i % 2 ? 3 : 1), 0) % 10)) % 10);

describe("an import's dry run with a slow Open Library", () => {
  it('starts no lookup once its time is nearly spent: the books left are refused for now, and the check answers in time', async () => {
    const isbns = Array.from({ length: 20 }, (_, i) => withCheckDigit(`979800000${String(i).padStart(3, '0')}`));
    const file = ['isbn,price,stock,available', ...isbns.map((isbn) => `${isbn},10.00,1,true`)].join('\n');
    // Over real HTTP, where a request's signal follows its connection.
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    // Each answer comes 100 s after it was asked for, by the shop's clock: past the lookups' time at the first.
    let lookups = 0;
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    onLookup = () => {
      lookups++;
      vi.setSystemTime(Date.now() + 100_000);
    };
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/employee/catalog/import`, {
        method: 'POST',
        headers: { cookie: admin, 'content-type': 'text/csv' },
        body: file,
      });
      const job = (await res.json()) as { data: { invalid: number; invalidRows: { reason: string }[] } };
      expect(res.status, JSON.stringify(job)).toBe(200);
      // The first eight at once; none after them, past the check's time for lookups.
      expect(lookups).toBe(8);
      expect(job.data.invalid).toBe(20);
      expect(job.data.invalidRows.filter((row) => row.reason === 'The ISBN lookup failed; check the file again later.')).toHaveLength(12);
    } finally {
      onLookup = () => {};
      vi.useRealTimers();
    }
  });
});

describe('an Admin who leaves a dry run before its answer', () => {
  it('makes it start no more lookups, and keep no job', async () => {
    const isbns = Array.from({ length: 20 }, (_, i) => withCheckDigit(`979800001${String(i).padStart(3, '0')}`));
    const file = ['isbn,price,stock,available', ...isbns.map((isbn) => `${isbn},10.00,1,true`)].join('\n');
    await t.app.listen({ port: 0, host: '127.0.0.1' }).catch(() => {}); // listening already, from the test before
    const { port } = t.app.server.address() as AddressInfo;
    const jobs = async () => (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM import_jobs'))[0]!.n;
    const jobsBefore = await jobs();
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let lookups = 0;
    onLookup = () => {
      lookups++;
      return held;
    };
    try {
      const leaving = new AbortController();
      const answer = fetch(`http://127.0.0.1:${port}/api/employee/catalog/import`, {
        method: 'POST',
        headers: { cookie: admin, 'content-type': 'text/csv' },
        body: file,
        signal: leaving.signal,
      }).catch(() => 'left');
      await vi.waitFor(() => expect(lookups).toBe(8));
      leaving.abort();
      expect(await answer).toBe('left');
      await sleep(200); // the server sees its connection closed
      release();
      await sleep(1000);
      expect(lookups).toBe(8);
      expect(await jobs()).toBe(jobsBefore);
    } finally {
      onLookup = () => {};
      release();
    }
  });
});

const ISBN = '9780261103344';
/** Open Library answering `book` for the ISBN, as its books API does. */
const answering = (book: Record<string, unknown>) =>
  openLibraryLookup('https://openlibrary.test', (async () => Response.json({ [`ISBN:${ISBN}`]: book })) as typeof fetch);

describe("Open Library's record", () => {
  it('gives the title with its subtitle, the first author, the year, the pages and the cover', async () => {
    const found = await answering({
      title: 'The Hobbit',
      subtitle: 'or There and Back Again',
      authors: [{ name: 'J.R.R. Tolkien' }],
      publish_date: 'September 21, 1937',
      number_of_pages: 310,
      cover: { medium: 'https://covers.openlibrary.org/b/id/1-M.jpg' },
      subjects: [{ name: 'Fantasy fiction' }],
    })(ISBN);
    expect(found).toMatchObject({
      title: 'The Hobbit: or There and Back Again',
      author: 'J.R.R. Tolkien',
      publishedYear: 1937,
      pagesNumber: 310,
      imageUrl: 'https://covers.openlibrary.org/b/id/1-M.jpg',
    });
  });

  it.each([0, -3, 12.5, 1e9, '310'])('leaves out a page count of %s, which the shop cannot keep', async (pages) => {
    expect((await answering({ title: 'Odd', number_of_pages: pages })(ISBN))?.pagesNumber).toBeNull();
  });

  it.each(['javascript:alert(1)', 'data:image/png;base64,AAAA', '/relative.jpg', 42])('leaves out a cover at %s', async (cover) => {
    expect((await answering({ title: 'Odd', cover: { medium: cover } })(ISBN))?.imageUrl).toBeNull();
  });

  it.each([{ title: 42 }, { title: ['The Hobbit'] }, { title: { text: 'The Hobbit' } }, { title: '   ' }])(
    'is no record when its title is not text (%o)',
    async (book) => {
      expect(await answering(book)(ISBN)).toBeNull();
    },
  );

  it('keeps what is text and leaves out the rest, where a field holds something else', async () => {
    const found = await answering({
      title: 'Odd',
      subtitle: 7,
      authors: [{ name: 3 }, null, { name: 'A. Writer' }],
      subjects: 'Fantasy',
      publish_date: 1937,
      notes: { value: 'x' },
      cover: null,
    })(ISBN);
    expect(found).toEqual({
      title: 'Odd',
      author: 'A. Writer',
      category: null,
      publishedYear: null,
      pagesNumber: null,
      imageUrl: null,
      description: null,
    });
  });

  it('trims its text and drops control characters: a NUL, which PostgreSQL refuses, and line breaks in a title', async () => {
    const found = await answering({
      title: ' The\u0000 Hobbit\n',
      subtitle: ' or\nThere and Back Again ',
      authors: [{ name: '  J.R.R. Tolkien ' }],
      notes: ' First line.\nSecond line.\u0007 ',
    })(ISBN);
    expect(found).toMatchObject({
      title: 'The Hobbit: or There and Back Again',
      author: 'J.R.R. Tolkien',
      description: 'First line.\nSecond line.',
    });
  });

  it('is no record when the answer is not an object of records', async () => {
    for (const answer of [null, [1, 2], 'text']) {
      const lookup = openLibraryLookup('https://openlibrary.test', (async () => Response.json(answer)) as typeof fetch);
      expect(await lookup(ISBN)).toBeNull();
    }
  });
});

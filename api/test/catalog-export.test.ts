// The catalog export (beyond the spec): the file it writes, and that it reads the catalog from a
// database cursor at the reader's pace instead of holding it whole. The statements' timeout is
// short here, so a download that outlasts it shows that the cursor is not cut off by it. And what
// an export may not do to the rest of the shop: keep a connection the database ended, take more
// than its share of the pool, or hold up the shutdown.
import { once } from 'node:events';
import zlib, { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { stringify } from 'csv-stringify/sync';
import { expect, it, vi } from 'vitest';
import { loggerOptions } from '../src/lib/logging.ts';
import { EXPORT_BATCH } from '../src/modules/catalog-admin/catalog-transfer-repository.ts';
import { EXPORT_COLUMNS, EXPORTS_AT_ONCE } from '../src/modules/catalog-admin/catalog-transfer-service.ts';
import { STREAMED_DOWNLOAD_COMPRESSION } from '../src/plugins/compression.ts';
import { addBigCatalog, getOverHttp, pauseAfterFirstData } from './export-download.ts';
import { createTestApp, DEMO } from './helpers.ts';
import { logCapture } from './log-capture.ts';

const STATEMENT_TIMEOUT_MS = 500;
/** Room for the exports allowed at once and the calls beside them. */
const POOL_SIZE = EXPORTS_AT_ONCE + 2;
const EXPORT_URL = '/api/employee/catalog/export.csv';
const { lines: logLines, stream } = logCapture<{ level: number; msg: string }>();
const t = await createTestApp({
  logger: loggerOptions({ env: 'test', logLevel: 'info' }, stream),
  env: {
    DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
    DATABASE_POOL_SIZE: String(POOL_SIZE),
    DATABASE_CONNECT_TIMEOUT_MS: '200',
  },
});
const admin = await t.login(DEMO.admin);

/**
 * The file as the export has always written it, worked out here another way (two plain queries
 * joined in memory): every book in id order, each copy of it in id order with its stock, price and
 * availability twice (as they are, and as exported_stock, exported_price and exported_available), its id
 * and the stock ledger's last entry, a book without copies as one row with empty copy fields, and a
 * cell a spreadsheet would run as a formula with a leading apostrophe.
 */
async function expectedFile() {
  const books = await t.db.query<{ id: number; isbn13: string | null; name: string; author: string; category: string }>(
    `SELECT b.id, b.isbn13, b.name, a.full_name AS author, bt.name AS category
     FROM books b, authors a, book_types bt WHERE a.id = b.author_id AND bt.id = b.type_id ORDER BY b.id`,
  );
  const copies = await t.db.query<{ id: number; book_id: number; price: string; quantity: number; is_available: boolean }>(
    'SELECT id, book_id, price, quantity, is_available FROM book_copies ORDER BY id',
  );
  const [{ ledger }] = (await t.db.query<{ ledger: string }>('SELECT coalesce(max(id), 0)::text AS ledger FROM stock_movements')) as [
    { ledger: string },
  ];
  const copiesOf = new Map<number, typeof copies>();
  for (const copy of copies) copiesOf.set(copy.book_id, [...(copiesOf.get(copy.book_id) ?? []), copy]);
  const cell = (text: string) => (['=', '+', '-', '@', '\t', '\r'].includes(text[0] ?? '') ? `'${text}` : text);
  const records = books.flatMap((book) => {
    const fields = [book.isbn13 ?? '', cell(book.name), cell(book.author), cell(book.category)];
    const own = copiesOf.get(book.id) ?? [];
    if (!own.length) return [[...fields, '', '', '', '', '', '', '', ledger]];
    return own.map((c) => {
      const copy = [Number(c.price).toFixed(2), String(c.quantity), String(c.is_available)];
      return [...fields, ...copy, copy[1]!, copy[0]!, copy[2]!, String(c.id), ledger];
    });
  });
  return stringify([[...EXPORT_COLUMNS], ...records]);
}

/** The export's statements still open in the database (a cursor being read), other than this test's own. */
const EXPORT_BACKENDS = `FROM pg_stat_activity
  WHERE datname = current_database() AND pid <> pg_backend_pid() AND state <> 'idle'
    AND query LIKE '%LEFT JOIN book_copies c ON c.book_id = b.id%'`;
const openExports = async () => Number((await t.db.query<{ n: string }>(`SELECT count(*) AS n ${EXPORT_BACKENDS}`))[0]?.n);
const connectionsInUse = () => t.app.databasePool.totalCount - t.app.databasePool.idleCount;

/** `promise`, or a failure naming what did not happen within `ms`: a hang fails the test rather than stalling it. */
function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * A download over HTTP read as far as its first records and then left waiting, as a stalled reader
 * does. The header leaves before the cursor has given a row, so records show the statement is running.
 */
async function stalledDownload() {
  const res = await t.app.inject({ method: 'GET', url: EXPORT_URL, headers: { cookie: admin }, payloadAsStream: true });
  expect(res.statusCode).toBe(200);
  const chunks = res.stream()[Symbol.asyncIterator]();
  let read = '';
  while (read.split('\n').length < 3) {
    const chunk = await chunks.next();
    expect(chunk.done).toBe(false);
    read += String(chunk.value);
  }
  return chunks;
}
/** Reads a download's rest: resolves when it ends as a whole file, rejects when it is cut off. */
async function readRest(chunks: AsyncIterator<unknown>) {
  while (!(await chunks.next()).done);
}
/** How a download cut off (the response destroyed) reaches the reader, unlike one that ends. */
const CUT_OFF = { code: 'LIGHT_ECONNRESET' };

it('answers the whole catalog as the CSV it has always written, as a download', async () => {
  // A formula, and fields the file must quote (a comma, quotes, a line break), checked against csv-stringify's output:
  // in a title, and in an author's and a category's names.
  await t.db.query(
    `WITH a AS (INSERT INTO authors (full_name) VALUES ('Tolkien, J. R. R.') RETURNING id),
          bt AS (INSERT INTO book_types (name) VALUES ('-Poetry, "Verse"') RETURNING id)
     INSERT INTO books (name, search_text, author_id, type_id) SELECT 'The Hobbit', 'quoted', a.id, bt.id FROM a, bt`,
  );
  await t.db.query(
    `INSERT INTO books (name, search_text, author_id, type_id)
     SELECT title, 'quoted', min(a.id), min(bt.id) FROM authors a, book_types bt,
            unnest(ARRAY['=HYPERLINK("http://evil.example")', E'Crime, "Punishment"\\r\\nand After']) title GROUP BY title`,
  );
  const res = await t.app.inject({ method: 'GET', url: '/api/employee/catalog/export.csv', headers: { cookie: admin } });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
  expect(res.headers['content-disposition']).toMatch(/^attachment; filename="bookshop-books-\d{4}-\d{2}-\d{2}\.csv"$/);
  const expected = await expectedFile();
  expect(expected.split('\n').length).toBeGreaterThan(5000);
  expect(res.body).toBe(expected);
});

it('leaves compressed as the browser asks, brotli or gzip, at the quick settings of a long download, with the same file inside', async () => {
  const expected = await expectedFile();
  const inflate = { br: brotliDecompressSync, gzip: gunzipSync };
  const brotli = vi.spyOn(zlib, 'createBrotliCompress');
  const gzip = vi.spyOn(zlib, 'createGzip');
  for (const encoding of ['br', 'gzip'] as const) {
    const res = await t.app.inject({ method: 'GET', url: EXPORT_URL, headers: { cookie: admin, 'accept-encoding': encoding } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(res.rawPayload.length).toBeLessThan(expected.length / 2);
    expect(inflate[encoding](res.rawPayload).toString()).toBe(expected);
  }
  expect(brotli).toHaveBeenCalledExactlyOnceWith(expect.objectContaining(STREAMED_DOWNLOAD_COMPRESSION.brotliOptions));
  expect(gzip).toHaveBeenCalledExactlyOnceWith(STREAMED_DOWNLOAD_COMPRESSION.zlibOptions);
  brotli.mockRestore();
  gzip.mockRestore();
});

it('reads from a cursor as the reader reads: the statement stays open while the reader waits, past the statement timeout', async () => {
  const file = await t.app.catalogTransfer.exportFile();
  const reader = file[Symbol.asyncIterator]();
  let text = String((await reader.next()).value);
  expect(text.startsWith(`${EXPORT_COLUMNS.join(',')}\n`)).toBe(true);
  await new Promise((resolve) => setTimeout(resolve, STATEMENT_TIMEOUT_MS * 2));
  // The catalog (over 5,000 rows) was not read whole: the cursor is still open, waiting for the reader.
  expect(await openExports()).toBe(1);
  for (let chunk = await reader.next(); !chunk.done; chunk = await reader.next()) text += String(chunk.value);
  expect(text).toBe(await expectedFile());
  await vi.waitFor(async () => expect(await openExports()).toBe(0));
});

it('sends the records a batch at a time, as the cursor gives them, not a chunk (and a write) each', async () => {
  const file = await t.app.catalogTransfer.exportFile();
  // Flowing, a stream gives each chunk as it was pushed.
  const chunks: string[] = [];
  file.on('data', (chunk: Buffer) => chunks.push(String(chunk)));
  await once(file, 'end');
  expect(chunks[0]).toBe(`${EXPORT_COLUMNS.join(',')}\n`);
  const records = chunks.slice(1).map((chunk) => chunk.split('\n').length - 1);
  expect(records.length).toBeGreaterThan(2);
  // Each chunk but the last holds a whole batch (the last also holds the title with a line break in it).
  expect(records.slice(0, -1).every((count) => count === EXPORT_BATCH)).toBe(true);
});

it('closes the cursor and its connection when the reader leaves half-way', async () => {
  const pool = t.app.databasePool;
  const file = await t.app.catalogTransfer.exportFile();
  const reader = file[Symbol.asyncIterator]();
  await reader.next();
  await reader.next();
  expect(await openExports()).toBe(1);
  await reader.return?.();
  await vi.waitFor(async () => expect(await openExports()).toBe(0));
  await vi.waitFor(() => expect(pool.totalCount - pool.idleCount).toBe(0));
});

it('answers 503 with Retry-After, not a file cut short, when no connection is free for the cursor', async () => {
  const held = await Promise.all(Array.from({ length: POOL_SIZE }, () => t.app.databasePool.connect()));
  const res = await t.app.inject({ method: 'GET', url: EXPORT_URL, headers: { cookie: admin } });
  expect(res.statusCode).toBe(503);
  expect(res.headers['retry-after']).toBeDefined();
  expect(res.json().error.code).toBe('DATABASE_UNAVAILABLE');
  for (const client of held) client.release();
  expect((await t.app.inject({ method: 'GET', url: EXPORT_URL, headers: { cookie: admin } })).statusCode).toBe(200);
});

it(`answers 503 with Retry-After while ${EXPORTS_AT_ONCE} exports stream, leaving the rest of the pool to the shop`, async () => {
  const downloads = await Promise.all(Array.from({ length: EXPORTS_AT_ONCE }, () => t.app.catalogTransfer.exportFile()));
  const res = await t.app.inject({ method: 'GET', url: EXPORT_URL, headers: { cookie: admin } });
  expect(res.statusCode).toBe(503);
  expect(res.headers['retry-after']).toBe('60');
  expect(res.json().error).toMatchObject({
    code: 'BUSY',
    message: `${EXPORTS_AT_ONCE} catalog exports are already running. Try again when one of them has finished.`,
  });
  expect(connectionsInUse()).toBe(EXPORTS_AT_ONCE);
  // One ends: the next export is taken.
  downloads[0]?.destroy();
  await vi.waitFor(async () =>
    expect((await t.app.inject({ method: 'GET', url: EXPORT_URL, headers: { cookie: admin } })).statusCode).toBe(200),
  );
  downloads[1]?.destroy();
  await vi.waitFor(() => expect(connectionsInUse()).toBe(0));
});

it('cuts the download off at once and gives its connection back when the database ends the connection mid-export', async () => {
  const download = await stalledDownload();
  // The last test's exports ended their connections half-way: their backends may take a moment to go.
  await vi.waitFor(async () => expect(await openExports()).toBe(1));
  const [ended] = await t.db.query<{ ended: boolean }>(`SELECT pg_terminate_backend(pid) AS ended ${EXPORT_BACKENDS}`);
  expect(ended?.ended).toBe(true);
  // Cut off, not ended: a file short of its rows must not look whole.
  await expect(within(5000, 'the download failing', readRest(download))).rejects.toMatchObject(CUT_OFF);
  await vi.waitFor(() => expect(connectionsInUse()).toBe(0));
  expect(logLines.filter((line) => line.level === 50).map((line) => line.msg)).toContain('the catalog export stopped half-way');
  expect((await t.app.inject({ method: 'GET', url: EXPORT_URL, headers: { cookie: admin } })).body).toBe(await expectedFile());
});

/** A download over a real connection, once its answer's head has come. */
async function realDownload(headers: Record<string, string> = {}) {
  await bigCatalog();
  return getOverHttp(t.app, EXPORT_URL, { cookie: admin, ...headers });
}

let bigCatalogAdded = false;
/** The big catalog, added by whichever real download comes first. */
async function bigCatalog() {
  if (bigCatalogAdded) return;
  await addBigCatalog(t.db);
  bigCatalogAdded = true;
}

it('logs an Admin who leaves a download half-way as such, not as a fault', async () => {
  const from = logLines.length;
  // Compressed, as a browser asks for it: the compressor must not take the leaving for a fault either.
  const download = await realDownload({ 'accept-encoding': 'gzip' });
  expect(download.statusCode).toBe(200);
  expect(download.headers['content-encoding']).toBe('gzip');
  await once(download, 'data');
  download.destroy();
  await vi.waitFor(() => expect(connectionsInUse()).toBe(0), { timeout: 5000 });
  await vi.waitFor(() => expect(logLines.slice(from).map((line) => line.msg)).toContain('the reader left the catalog export half-way'), {
    timeout: 5000,
  });
  // Nothing logs it as a fault: neither the route nor the compressor.
  expect(logLines.slice(from).filter((line) => line.level >= 50)).toEqual([]);
});

// Last: it closes the app. Over a real connection, which the server's close waits for, unlike inject's.
it('closes promptly with a stalled download open: the download is cut off and its connection closed', async () => {
  const download = await realDownload();
  expect(download.statusCode).toBe(200);
  const { outcome } = await pauseAfterFirstData(download);
  await within(5000, 'app.close()', t.app.close());
  expect(t.app.databasePool.totalCount).toBe(0);
  download.resume();
  expect(await within(5000, 'the download failing', outcome)).toBe('cut off');
});

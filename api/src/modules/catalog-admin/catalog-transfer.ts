// Bulk export and import of books with their copies (beyond the spec).
// - Export: CSV read in batches by book id and streamed out, so a catalog of any size never sits
//   in memory.
// - Import: a CSV of isbn, price, stock and available, and the export's exported_stock when the file
//   came from an export. With it, a row's stock is a change (stock - exported_stock) applied on top
//   of the stock at the run, so sales made since the export stand (decision record 12); without it,
//   the stock is written as the file says, and the dry run warns. The dry run checks every row, looks up the
//   ISBNs the shop lacks through Add Book's lookup, and stores the plan; nothing is written. The
//   run, on the Admin's word, writes the plan in one transaction as a background job whose progress
//   any instance can read (import_jobs). A failure writes nothing; the audit trigger records every
//   row it changes, as the Admin who ran it.

import { parse } from 'csv-parse/sync';
import type { FastifyBaseLogger } from 'fastify';
import type { Prisma } from '../../generated/prisma/client.ts';
import { AppError } from '../../lib/errors.ts';
import { toIsbn13 } from '../../lib/isbn.ts';
import { toCents } from '../../lib/money.ts';
import { refuse } from '../../lib/refusals.ts';
import { nameStockReason } from '../../lib/stock-reason.ts';
import type { Db } from '../../plugins/prisma.ts';
import { STOCK_MAX } from '../../schemas/backoffice-catalog.ts';
import { IMPORT_MAX_ROWS, IMPORT_REPORTED_INVALID } from '../../schemas/staff.ts';
import { type AuditActor, auditContext, auditedTransaction } from '../security/audit.ts';
import type { CatalogAdminService } from './catalog-admin-service.ts';
import type { IsbnLookup, IsbnRecord } from './isbn-lookup.ts';

/** exported_stock repeats the stock the export saw, for the import to compare: edit stock, not it. */
export const EXPORT_COLUMNS = ['isbn', 'title', 'author', 'category', 'price', 'stock', 'available', 'exported_stock'] as const;
export const IMPORT_COLUMNS = ['isbn', 'price', 'stock', 'available'] as const;
const EXPORTED_STOCK = 'exported_stock';
export const NO_EXPORTED_STOCK_WARNING =
  "The file has no exported_stock column, so each row's stock replaces the copy's stock as it is when the import runs: copies sold since the file was made come back. Export the catalog again and edit that file to keep them sold.";

const EXPORT_BATCH = 1000;
const LOOKUP_BATCH = 1000;
/** ISBN lookups at once: enough to be quick, few enough to be polite to Open Library. */
const LOOKUPS_AT_ONCE = 8;
/** ISBNs the shop lacks that one file may add: each is a lookup, at Open Library in production. */
export const IMPORT_MAX_NEW_BOOKS = 200;
const PROGRESS_EVERY = 100;
/** One transaction writes the whole file: long enough for 100,000 rows on a small machine. */
const IMPORT_TIMEOUT_MS = 30 * 60_000;
/** A dry run older than this is checked again before it runs: the shop may have moved since. */
const CHECK_VALID_MS = 30 * 60_000;
/**
 * The running import holds this transaction-level advisory lock: one import at a time across all
 * instances, and a job marked running whose lock nobody holds died with its instance (its
 * transaction rolled back with it).
 */
const IMPORT_LOCK = 16_016;
/** How long a job may show running before its lock is taken (the run's first statements). */
const START_GRACE_MS = 30_000;

type Kind = 'new' | 'changed' | 'unchanged';
interface PlannedRow {
  line: number;
  isbn13: string;
  price: string;
  stock: number;
  available: boolean;
  /** The stock the export saw, when the file says: the row then changes the stock by stock - exportedStock. */
  exportedStock?: number;
  kind: Kind;
  /** A new book's looked-up facts and category, so the run looks up nothing again. */
  found?: IsbnRecord & { typeId: number };
}
interface InvalidRow {
  line: number;
  isbn: string;
  reason: string;
}
interface MovedRow {
  line: number;
  isbn: string;
  exportedStock: number;
  stockNow: number;
  stockAfter: number;
}
interface Summary {
  rows: number;
  new: number;
  changed: number;
  unchanged: number;
  invalid: number;
  invalidRows: InvalidRow[];
  moved: number;
  movedRows: MovedRow[];
  warnings: string[];
}

/** A cell a spreadsheet would run as a formula gets a leading apostrophe (CSV injection). */
const spreadsheetSafe = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

const PRICE = /^\d{1,8}(\.\d{1,2})?$/;
const STOCK = /^\d{1,7}$/;
const AVAILABLE = new Map([
  ['true', true],
  ['yes', true],
  ['1', true],
  ['false', false],
  ['no', false],
  ['0', false],
]);

/** Runs `work` over `items`, `limit` at a time. */
async function inParallel<T>(items: T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

export function catalogTransfer(
  db: Db,
  lookupIsbn: IsbnLookup,
  catalogAdmin: CatalogAdminService,
  log: FastifyBaseLogger,
  onWritten: () => void,
) {
  /** Whether any instance's import holds the lock (is alive). */
  const importLockHeld = async () =>
    (
      await db.$queryRaw<{ held: boolean }[]>`
        SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND classid = 0 AND objid = ${IMPORT_LOCK} AND granted) AS held`
    )[0]!.held;

  const view = async (job: Omit<Prisma.ImportJobGetPayload<object>, 'plan'>) => {
    const summary = job.summary as unknown as Summary;
    const stale = job.status === 'running' && Date.now() - job.updatedAt.getTime() > START_GRACE_MS && !(await importLockHeld());
    return {
      id: job.id,
      status: stale ? ('failed' as const) : (job.status as 'checked' | 'running' | 'done' | 'failed'),
      ...summary,
      // Jobs checked before the ledger (decision record 12) have no moved rows or warnings.
      moved: summary.moved ?? 0,
      movedRows: summary.movedRows ?? [],
      warnings: summary.warnings ?? [],
      skipInvalid: job.skipInvalid,
      total: job.total,
      processed: stale ? 0 : job.processed,
      error: stale ? 'The import stopped before it finished, and nothing was written. Check the file again to retry.' : job.error,
      createdAt: job.createdAt.toISOString(),
      finishedAt: job.finishedAt?.toISOString() ?? null,
    };
  };

  /** The file's rows, with their line numbers, by column name; a 400 the screen shows when it is not usable CSV. */
  function readRows(text: string) {
    let records: { record: string[]; info: { lines: number } }[];
    try {
      records = parse(text, {
        bom: true,
        skip_empty_lines: true,
        trim: true,
        relax_column_count: true,
        info: true,
        max_record_size: 64 * 1024,
        // One record past the most a file may hold is enough to refuse it: a file of millions of tiny
        // lines is never held whole.
        to: IMPORT_MAX_ROWS + 2,
      }) as unknown as typeof records;
    } catch (error) {
      throw refuse.form(`The file is not valid CSV: ${(error as Error).message}`);
    }
    const [header, ...rows] = records;
    const columns = header?.record.map((name) => name.toLowerCase()) ?? [];
    const at = Object.fromEntries(IMPORT_COLUMNS.map((name) => [name, columns.indexOf(name)])) as Record<
      (typeof IMPORT_COLUMNS)[number],
      number
    >;
    if (Object.values(at).some((index) => index < 0)) {
      throw refuse.form(`The file's first line must name the columns ${IMPORT_COLUMNS.join(', ')}.`);
    }
    if (!rows.length) throw refuse.form('The file has no rows under its header.');
    if (rows.length > IMPORT_MAX_ROWS) throw refuse.form(`A file can hold at most ${IMPORT_MAX_ROWS.toLocaleString('en-US')} rows.`);
    const exportedAt = columns.indexOf(EXPORTED_STOCK);
    return {
      hasExportedStock: exportedAt >= 0,
      rows: rows.map(({ record, info }) => ({
        line: info.lines,
        isbn: record[at.isbn] ?? '',
        price: record[at.price] ?? '',
        stock: record[at.stock] ?? '',
        available: (record[at.available] ?? '').toLowerCase(),
        exportedStock: exportedAt >= 0 ? (record[exportedAt] ?? '') : '',
      })),
    };
  }

  /** Why a row cannot be imported, or null. */
  const rowProblem = (row: ReturnType<typeof readRows>['rows'][number], isbn13: string | null, lineOfIsbn: Map<string, number>) => {
    if (!isbn13) return 'This is not a valid ISBN.';
    if (lineOfIsbn.has(isbn13)) return `This ISBN is on line ${lineOfIsbn.get(isbn13)} too.`;
    if (!PRICE.test(row.price)) return refuse.copyPrice().message;
    const stockRange = `must be a whole number from 0 to ${STOCK_MAX.toLocaleString('en-US')}.`;
    if (!STOCK.test(row.stock) || Number(row.stock) > STOCK_MAX) return `Stock ${stockRange}`;
    if (row.exportedStock !== '' && (!STOCK.test(row.exportedStock) || Number(row.exportedStock) > STOCK_MAX)) {
      return `Exported stock ${stockRange} Leave it as the export wrote it, or empty.`;
    }
    if (!AVAILABLE.has(row.available)) return 'Available must be true or false.';
    return null;
  };

  async function plan(text: string) {
    const invalid: InvalidRow[] = [];
    const valid: Omit<PlannedRow, 'kind'>[] = [];
    const lineOfIsbn = new Map<string, number>();
    const file = readRows(text);
    for (const row of file.rows) {
      const isbn13 = toIsbn13(row.isbn);
      const reason = rowProblem(row, isbn13, lineOfIsbn);
      if (reason || !isbn13) {
        invalid.push({ line: row.line, isbn: row.isbn, reason: reason ?? '' });
        continue;
      }
      lineOfIsbn.set(isbn13, row.line);
      valid.push({
        line: row.line,
        isbn13,
        price: Number(row.price).toFixed(2),
        stock: Number(row.stock),
        available: AVAILABLE.get(row.available)!,
        ...(row.exportedStock === '' ? {} : { exportedStock: Number(row.exportedStock) }),
      });
    }

    const inShop = new Map<string, { price: Prisma.Decimal; quantity: number; isAvailable: boolean } | null>();
    for (let i = 0; i < valid.length; i += LOOKUP_BATCH) {
      const books = await db.book.findMany({
        where: { isbn13: { in: valid.slice(i, i + LOOKUP_BATCH).map((r) => r.isbn13) } },
        select: { isbn13: true, copies: { select: { price: true, quantity: true, isAvailable: true }, orderBy: { id: 'asc' }, take: 1 } },
      });
      for (const book of books) inShop.set(book.isbn13!, book.copies[0] ?? null);
    }

    const planned: PlannedRow[] = [];
    const moved: MovedRow[] = [];
    let newBooks = 0;
    await inParallel(valid, LOOKUPS_AT_ONCE, async (row) => {
      if (inShop.has(row.isbn13)) {
        const copy = inShop.get(row.isbn13);
        const relative = copy && row.exportedStock !== undefined;
        const stockAfter = relative ? copy.quantity + row.stock - row.exportedStock! : row.stock;
        if (relative && copy.quantity !== row.exportedStock) {
          if (stockAfter < 0 || stockAfter > STOCK_MAX) {
            invalid.push({
              line: row.line,
              isbn: row.isbn13,
              reason: `The stock moved since the export (${row.exportedStock} then, ${copy.quantity} now): the file's change would leave ${stockAfter}.`,
            });
            return;
          }
          moved.push({ line: row.line, isbn: row.isbn13, exportedStock: row.exportedStock!, stockNow: copy.quantity, stockAfter });
        }
        const same =
          copy && toCents(copy.price) === toCents(row.price) && copy.quantity === stockAfter && copy.isAvailable === row.available;
        planned.push({ ...row, kind: same ? 'unchanged' : 'changed' });
        return;
      }
      if (++newBooks > IMPORT_MAX_NEW_BOOKS) {
        invalid.push({
          line: row.line,
          isbn: row.isbn13,
          reason: `One file may add at most ${IMPORT_MAX_NEW_BOOKS} books the shop does not have yet; import the rest in another file.`,
        });
        return;
      }
      let found: IsbnRecord | null;
      try {
        found = await lookupIsbn(row.isbn13);
      } catch {
        invalid.push({ line: row.line, isbn: row.isbn13, reason: 'The ISBN lookup failed; check the file again later.' });
        return;
      }
      if (!found) invalid.push({ line: row.line, isbn: row.isbn13, reason: 'No book was found for this ISBN.' });
      else planned.push({ ...row, kind: 'new', found: { ...found, typeId: await catalogAdmin.categoryOf(found) } });
    });
    planned.sort((a, b) => a.line - b.line);
    invalid.sort((a, b) => a.line - b.line);
    moved.sort((a, b) => a.line - b.line);
    const count = (kind: Kind) => planned.filter((r) => r.kind === kind).length;
    const summary: Summary = {
      rows: planned.length + invalid.length,
      new: count('new'),
      changed: count('changed'),
      unchanged: count('unchanged'),
      invalid: invalid.length,
      invalidRows: invalid.slice(0, IMPORT_REPORTED_INVALID),
      moved: moved.length,
      movedRows: moved.slice(0, IMPORT_REPORTED_INVALID),
      warnings: file.hasExportedStock ? [] : [NO_EXPORTED_STOCK_WARNING],
    };
    return { summary, rows: planned.filter((r) => r.kind !== 'unchanged') };
  }

  /** Writes one row: the book when the shop lacks it (as Add Book does), then its first copy. */
  async function writeRow(tx: Prisma.TransactionClient, row: PlannedRow) {
    const existing = await tx.book.findUnique({
      where: { isbn13: row.isbn13 },
      select: { id: true, copies: { select: { id: true }, orderBy: { id: 'asc' }, take: 1 } },
    });
    // A book added since the dry run is updated like any other; one removed since is created again.
    const bookId =
      existing?.id ?? (row.found ? (await catalogAdmin.createFoundBook(tx, row.isbn13, row.found, row.found.typeId)).id : null);
    if (bookId === null) throw refuse.form(`The book of line ${row.line} is no longer in the shop; check the file again.`);
    const data = { price: row.price, quantity: row.stock, isAvailable: row.available };
    const copyId = existing?.copies[0]?.id;
    if (!copyId) await tx.bookCopy.create({ data: { ...data, bookId }, select: { id: true } });
    else if (row.exportedStock === undefined) await tx.bookCopy.update({ where: { id: copyId }, data, select: { id: true } });
    else {
      // The file's change on top of the stock now: sales since the export (and since the dry run) stand.
      // A stock that sold below the change since the dry run stops at 0 rather than failing the file.
      const change = row.stock - row.exportedStock;
      await tx.$executeRaw`
        UPDATE book_copies SET price = ${row.price}::numeric, is_available = ${row.available},
          quantity = least(greatest(quantity + ${change}::int, 0), ${STOCK_MAX}::int)
        WHERE id = ${copyId}`;
    }
  }

  async function execute(jobId: number, who: AuditActor) {
    const progress = (processed: number) =>
      db.importJob.update({ where: { id: jobId }, data: { processed, updatedAt: new Date() }, select: { id: true } });
    try {
      const { plan } = await db.importJob.findUniqueOrThrow({ where: { id: jobId }, select: { plan: true } });
      const rows = plan as unknown as PlannedRow[];
      await auditContext.run(who, () =>
        auditedTransaction(
          db,
          async (tx) => {
            const [{ locked }] = await tx.$queryRaw<[{ locked: boolean }]>`SELECT pg_try_advisory_xact_lock(${IMPORT_LOCK}) AS locked`;
            if (!locked) throw refuse.importBusy();
            await nameStockReason(tx, 'import', `import:${jobId}`);
            // The copies it will write, locked first and in id order, as checkout and cancel lock
            // theirs: a long import and a checkout then wait on each other, never deadlock.
            await tx.$queryRaw`
              SELECT c.id FROM book_copies c JOIN books b ON b.id = c.book_id
              WHERE b.isbn13 = ANY(${rows.map((r) => r.isbn13)}::text[]) ORDER BY c.id FOR UPDATE OF c`;
            for (const [index, row] of rows.entries()) {
              await writeRow(tx, row);
              if ((index + 1) % PROGRESS_EVERY === 0) await progress(index + 1);
            }
            // Done commits with the rows: a crash after the commit cannot leave it saying otherwise.
            const now = new Date();
            await tx.importJob.update({
              where: { id: jobId },
              data: { status: 'done', processed: rows.length, updatedAt: now, finishedAt: now },
              select: { id: true },
            });
          },
          { timeout: IMPORT_TIMEOUT_MS, maxWait: 10_000 },
        ),
      );
      onWritten();
    } catch (error) {
      log.error({ err: error, importJob: jobId }, 'an import failed and wrote nothing');
      const message =
        error instanceof AppError ? error.message : 'The import failed, and nothing was written. Check the file again to retry.';
      const now = new Date();
      await db.importJob
        .update({ where: { id: jobId }, data: { status: 'failed', processed: 0, error: message, updatedAt: now, finishedAt: now } })
        .catch((e: Error) => log.error({ err: e, importJob: jobId }, 'could not mark an import as failed'));
    }
  }

  async function jobView(id: number) {
    // The plan (tens of megabytes for a big file) is read by the run only, never by the screen's polls.
    const job = await db.importJob.findUnique({ where: { id }, omit: { plan: true } });
    if (!job) throw refuse.noImport();
    return view(job);
  }

  return {
    /** One CSV record per copy (a book without copies: one with empty copy fields), header first. */
    async *exportRecords(): AsyncGenerator<string[]> {
      yield [...EXPORT_COLUMNS];
      for (let after = 0; ; ) {
        const books = await db.book.findMany({
          where: { id: { gt: after } },
          orderBy: { id: 'asc' },
          take: EXPORT_BATCH,
          select: {
            id: true,
            isbn13: true,
            name: true,
            author: { select: { fullName: true } },
            type: { select: { name: true } },
            copies: { select: { price: true, quantity: true, isAvailable: true }, orderBy: { id: 'asc' } },
          },
        });
        if (!books.length) return;
        for (const book of books) {
          const fields = [
            book.isbn13 ?? '',
            spreadsheetSafe(book.name),
            spreadsheetSafe(book.author.fullName),
            spreadsheetSafe(book.type.name),
          ];
          if (!book.copies.length) yield [...fields, '', '', '', ''];
          for (const copy of book.copies) {
            yield [...fields, copy.price.toFixed(2), String(copy.quantity), String(copy.isAvailable), String(copy.quantity)];
          }
        }
        after = books.at(-1)!.id;
      }
    },

    /** The dry run: checks the file and stores the plan as a job; writes nothing to the catalog. */
    async check(text: string, who: AuditActor) {
      const { summary, rows } = await plan(text);
      const job = await db.importJob.create({
        data: {
          actor: who.actor,
          address: who.address,
          total: rows.length,
          summary: summary as unknown as Prisma.InputJsonValue,
          plan: rows as unknown as Prisma.InputJsonValue,
        },
      });
      return view(job);
    },

    job: jobView,

    /** Starts a checked import in the background; answers at once with the job, now running. */
    async run(id: number, skipInvalid: boolean, who: AuditActor) {
      const job = await db.importJob.findUnique({ where: { id }, omit: { plan: true } });
      if (!job) throw refuse.noImport();
      if (job.status !== 'checked') throw refuse.importAlreadyRun();
      if (Date.now() - job.createdAt.getTime() > CHECK_VALID_MS) throw refuse.importCheckExpired();
      if ((job.summary as unknown as Summary).invalid > 0 && !skipInvalid) throw refuse.importHasInvalidRows();
      if (await importLockHeld()) throw refuse.importBusy();
      const started = await db.importJob.updateMany({
        where: { id, status: 'checked' },
        data: { status: 'running', skipInvalid, actor: who.actor, address: who.address, updatedAt: new Date() },
      });
      if (!started.count) throw refuse.importAlreadyRun();
      void execute(id, who);
      return jobView(id);
    },
  };
}

export type CatalogTransfer = ReturnType<typeof catalogTransfer>;

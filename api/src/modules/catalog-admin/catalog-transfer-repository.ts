// The export's and the import's reads and writes: the catalog's rows for the export, the shop's
// copies the import's plan is compared with, the import jobs (import_jobs), and the run's
// transaction. Decisions are the plan's (catalog-import-plan.ts) and the runner's.
import { Readable } from 'node:stream';
import { STOCK_MAX } from '@bookshop/rules';
import type pg from 'pg';
import Cursor from 'pg-cursor';
import { Compile } from 'typebox/compile';
import type { Prisma } from '../../generated/prisma/client.ts';
import { refuse } from '../../lib/refusals.ts';
import { nameStockReason } from '../../lib/stock-reason.ts';
import { CATALOG_CHANGED_CHANNEL, soldNotices } from '../../plugins/catalog-cache.ts';
import type { Db } from '../../plugins/prisma.ts';
import { ImportPlanRow, type ImportSummary, type StoppedImportRow, StoredImportSummary } from '../../schemas/staff.ts';
import { type AuditActor, auditedTransaction } from '../security/audit.ts';
import { createFoundBook } from './catalog-admin-repository.ts';
import type { ShopCopy } from './catalog-import-plan.ts';
import type { IsbnRecord } from './isbn-lookup.ts';

// books.isbn13 is char(13): the ISBNs a statement here compares with it are sent as char(13) too. Sent
// as text, the column is cast to text for the comparison, which neither its unique index nor its
// statistics serve: at a million books each such statement read the whole table (an import's
// 10,000 rows took 18 s, 17 of them in its writes).

/** One book and one of its copies, or the book alone (copy fields null) when it has none. */
export interface ExportRow {
  isbn13: string | null;
  title: string;
  author: string;
  category: string;
  copyId: number | null;
  /** As numeric(10,2) prints it: two decimals. */
  price: string | null;
  quantity: number | null;
  isAvailable: boolean | null;
  /** The stock ledger's last entry in the export's snapshot (the same on every row). */
  ledger: string;
}

/**
 * Books in id order, each book's copies in id order: the order of the export's file. The ledger's
 * last entry is read once for the statement (an uncorrelated subquery), from its primary key. (The
 * bench reads it bare beside the export, as the database's pace.)
 */
export const EXPORT_ROWS = `
  SELECT b.isbn13, b.name AS title, a.full_name AS author, t.name AS category, c.id AS "copyId",
         c.price::text AS price, c.quantity, c.is_available AS "isAvailable",
         (SELECT coalesce(max(id), 0) FROM stock_movements)::text AS ledger
  FROM books b
  JOIN authors a ON a.id = b.author_id
  JOIN book_types t ON t.id = b.type_id
  LEFT JOIN book_copies c ON c.book_id = b.id
  ORDER BY b.id, c.id`;
/** Rows fetched from the cursor at a time: what the export holds, whatever the catalog's size. */
export const EXPORT_BATCH = 500;
/** The longest a download of the whole catalog may take; it stops sooner when the reader leaves. */
export const EXPORT_TIME_LIMIT_MS = 30 * 60_000;

/** One transaction writes the whole file: long enough for 100,000 rows on a small machine. */
const IMPORT_TIMEOUT_MS = 30 * 60_000;
/**
 * The running import holds this transaction-level advisory lock: one import at a time across all
 * instances, and a job marked running whose lock nobody holds died with its instance (its
 * transaction rolled back with it).
 */
const IMPORT_LOCK = 16_016;

const JOB_STATUSES = ['checked', 'running', 'done', 'failed'] as const;
export type ImportJobStatus = (typeof JOB_STATUSES)[number];
const isJobStatus = (status: string): status is ImportJobStatus => JOB_STATUSES.some((known) => known === status);

const storedSummary = Compile(StoredImportSummary);
const planRows = Compile(ImportPlanRow);

/** An import job as the screen sees it: never its plan (tens of megabytes for a big file). */
function toJob({ summary, status, ...job }: Omit<Prisma.ImportJobGetPayload<object>, 'plan'>) {
  if (!storedSummary.Check(summary)) throw new Error(`import job ${job.id} holds a summary of another shape`);
  if (!isJobStatus(status)) throw new Error(`import job ${job.id} has an unknown status ${status}`);
  return { ...job, status, summary };
}
export type ImportJob = ReturnType<typeof toJob>;

/**
 * One batch of planned rows written in one statement: each row's book found by ISBN, its first copy
 * set (with exported_stock, the file's change on top of the stock now: sales since the export and
 * since the check stand, and a stock that sold below the change stops at 0 rather than failing the
 * file, and the job names it; with exported_price and exported_available, each written only where the file changed it, so
 * the shop's own stands), or a first copy created for a book that has none. The audit and the stock ledger are the
 * tables' triggers, so a row written here is recorded as one written by hand. Answers the line of the
 * first row whose book the shop no longer has, of the first whose book's first copy is not the one
 * its copy_id names, and of the first whose price both the file and the shop changed since the export,
 * differently (the check refuses such a row; a save since the check made it one), for the caller to
 * refuse the file for any, the rows whose stock stopped at 0 or at the most (sold or restocked past the
 * change since the check, which refused such a row then; for the copies the run locked before its first
 * statement, every copy the check saw, the stock the statement read is the stock it changed: a copy
 * another transaction made since, unlocked, may be reported with the stock this statement began with),
 * whether a copy was put
 * on or taken off sale (every part of the statement sees the copies as they were before it), the
 * copies it updated, and whether it moved their stock alone: no price or sale changed, no copy
 * created, and none went into or out of stock. The run locked the copies before its first statement,
 * so what the statement sees before it is what it changed; a copy written by another transaction in
 * between (one created after the lock) shows as a version that rose by more than this update's one,
 * and is not counted as stock alone.
 */
const WRITE_COPIES = (max: number) => `
  WITH file AS (
    SELECT * FROM unnest($1::int[], $2::char(13)[], $3::numeric[], $4::int[], $5::bool[], $6::int[], $7::numeric[], $8::bool[], $9::int[],
                         $10::bigint[])
      AS f(line, isbn13, price, stock, available, exported_stock, exported_price, exported_available, exported_copy_id, exported_ledger)
  ), target AS (
    SELECT f.*, b.id AS book_id, first.id AS copy_id, first.is_available AS was_available, first.price AS was_price,
           first.quantity AS was_quantity, first.version AS was_version
    FROM file f LEFT JOIN books b ON b.isbn13 = f.isbn13
    LEFT JOIN LATERAL (SELECT c.id, c.is_available, c.price, c.quantity, c.version FROM book_copies c WHERE c.book_id = b.id ORDER BY c.id LIMIT 1) first ON true
  ), set_copies AS (
    UPDATE book_copies c SET
      price = CASE WHEN t.price = t.exported_price THEN c.price ELSE t.price END,
      is_available = CASE WHEN t.available = t.exported_available THEN c.is_available ELSE t.available END,
      quantity = CASE WHEN t.exported_stock IS NULL THEN t.stock
                      ELSE least(greatest(c.quantity + t.stock - t.exported_stock, 0), ${max}) END
    FROM target t WHERE c.id = t.copy_id
    RETURNING c.id, c.is_available <> t.was_available AS availability_changed,
              coalesce((c.quantity > 0) = (t.was_quantity > 0) AND c.price = t.was_price AND c.is_available = t.was_available
                       AND c.version = t.was_version + 1, false) AS stock_alone
  ), first_copies AS (
    INSERT INTO book_copies (book_id, price, quantity, is_available)
    SELECT book_id, price, stock, available FROM target WHERE book_id IS NOT NULL AND copy_id IS NULL
    RETURNING id
  )
  SELECT (SELECT min(line) FROM target WHERE book_id IS NULL) AS "missingLine",
         (SELECT min(line) FROM target WHERE exported_copy_id IS DISTINCT FROM copy_id AND exported_copy_id IS NOT NULL) AS "otherCopyLine",
         (SELECT min(line) FROM target
          WHERE copy_id IS NOT NULL AND price <> exported_price AND was_price <> exported_price AND was_price <> price) AS "priceChangedLine",
         (SELECT min(line) FROM target t
          WHERE t.copy_id IS NOT NULL AND t.stock <> t.exported_stock AND t.exported_ledger IS NOT NULL
            AND EXISTS (SELECT 1 FROM stock_movements m
                        WHERE m.copy_id = t.copy_id AND m.id > t.exported_ledger AND m.reason = 'import')) AS "importedSinceLine",
         (SELECT coalesce(jsonb_agg(jsonb_build_object('line', line, 'isbn', isbn13, 'stockBefore', was_quantity,
                                                       'change', stock - exported_stock,
                                                       'stockAfter', least(greatest(was_quantity + stock - exported_stock, 0), ${max}))
                                    ORDER BY line), '[]')
          FROM target WHERE copy_id IS NOT NULL AND exported_stock IS NOT NULL
            AND was_quantity + stock - exported_stock NOT BETWEEN 0 AND ${max}) AS "stoppedRows",
         (SELECT coalesce(bool_or(available), false) FROM target WHERE book_id IS NOT NULL AND copy_id IS NULL)
           OR (SELECT coalesce(bool_or(availability_changed), false) FROM set_copies) AS "availabilityChanged",
         (SELECT count(*) FROM set_copies)::int + (SELECT count(*) FROM first_copies)::int AS written,
         (SELECT coalesce(array_agg(id ORDER BY id), '{}') FROM set_copies) AS "copyIds",
         NOT EXISTS (SELECT FROM first_copies) AND (SELECT coalesce(bool_and(stock_alone), true) FROM set_copies) AS "stockAlone"`;

/** The run's writes, inside its transaction. */
export function importWrites(tx: Prisma.TransactionClient) {
  return {
    /** Add Book's write of a looked-up book, in this transaction. */
    addFoundBook: (isbn13: string, found: IsbnRecord & { typeId: number }) => createFoundBook(tx, isbn13, found, found.typeId),
    /** Those of `isbns` whose book the shop does not have (now, in this transaction). */
    async absentBooks(isbns: string[]) {
      const rows = await tx.$queryRaw<{ isbn13: string }[]>`
        SELECT f.isbn13 FROM unnest(${isbns}::char(13)[]) AS f(isbn13)
        WHERE NOT EXISTS (SELECT 1 FROM books b WHERE b.isbn13 = f.isbn13)`;
      return new Set(rows.map((row) => row.isbn13));
    },
    /** Writes `rows` in one statement (WRITE_COPIES). */
    async writeCopies(rows: ImportPlanRow[]) {
      const [result] = await tx.$queryRawUnsafe<
        {
          missingLine: number | null;
          otherCopyLine: number | null;
          priceChangedLine: number | null;
          importedSinceLine: number | null;
          stoppedRows: StoppedImportRow[];
          availabilityChanged: boolean;
          written: number;
          copyIds: number[];
          stockAlone: boolean;
        }[]
      >(
        WRITE_COPIES(STOCK_MAX),
        rows.map((row) => row.line),
        rows.map((row) => row.isbn13),
        rows.map((row) => row.price),
        rows.map((row) => row.stock),
        rows.map((row) => row.available),
        rows.map((row) => row.exportedStock ?? null),
        rows.map((row) => row.exportedPrice ?? null),
        rows.map((row) => row.exportedAvailable ?? null),
        rows.map((row) => row.copyId ?? null),
        rows.map((row) => row.exportedLedger ?? null),
      );
      return {
        missingLine: result?.missingLine ?? null,
        otherCopyLine: result?.otherCopyLine ?? null,
        priceChangedLine: result?.priceChangedLine ?? null,
        importedSinceLine: result?.importedSinceLine ?? null,
        stoppedRows: result?.stoppedRows ?? [],
        availabilityChanged: result?.availabilityChanged ?? true,
        copyIds: result?.copyIds ?? [],
        stockAlone: result?.stockAlone ?? false,
      };
    },
  };
}
export type ImportWrites = ReturnType<typeof importWrites>;

/** What the run's work wrote that its transaction says on: the notices' copies, and the job's stopped rows. */
export interface ImportWritten {
  /** The copies whose stock alone moved (see writeInOneTransaction), or null for anything more. */
  stockMovedAlone: number[] | null;
  /** Every row whose stock stopped at a limit, and the first IMPORT_REPORTED_INVALID of them. */
  stopped: number;
  stoppedRows: StoppedImportRow[];
}

export function catalogTransferRepository(db: Db, pool: pg.Pool) {
  return {
    /**
     * The export's rows from a cursor on one connection of the pool, `EXPORT_BATCH` at a time as the
     * reader takes them: the database sends no faster than the download goes, and nothing holds the
     * whole catalog. Object mode: each chunk a batch, an array of up to `EXPORT_BATCH` ExportRows, as
     * the cursor reads them (a chunk a row cost a million books more time than the database took).
     * A cursor rather than batches by keyset: one statement and one snapshot for the whole file, and
     * one connection taken once, where each batch would wait for the pool again (under load, most of
     * the export's time).
     *
     * A cursor's statement_timeout counts from its start however slowly the reader reads, so the
     * pool's few seconds would cut a long download short: this connection gets the export's own
     * limit instead (which also stops a stalled reader from holding the snapshot for good), and is
     * closed when the stream closes (ended, failed, or destroyed by a reader that left) rather than
     * handed back with that setting.
     *
     * A connection that dies under the cursor (the server ending the backend, a failover) never
     * answers the cursor's read or close (node-postgres#2588, #2642). So the connection's 'error' or
     * 'end' fails the stream at once, and closing the stream ends the connection rather than waiting
     * on the cursor.
     */
    async exportBatches(): Promise<Readable> {
      const client = await pool.connect();
      try {
        await client.query(`SET statement_timeout = ${EXPORT_TIME_LIMIT_MS}`);
      } catch (error) {
        client.release(true);
        throw error;
      }
      const cursor = client.query(new Cursor<ExportRow>(EXPORT_ROWS));
      let released = false;
      // Ends the connection (it holds the export's own statement_timeout), and with it the cursor:
      // a reader that left or a failure needs no answer from the database to let go of both.
      const release = () => {
        if (released) return;
        released = true;
        client.off('error', connectionLost).off('end', connectionLost);
        client.release(true);
      };
      const batches = new Readable({
        objectMode: true,
        // Up to two batches read ahead while the reader takes the one before.
        highWaterMark: 2,
        read() {
          cursor.read(EXPORT_BATCH).then(
            (rows) => {
              if (rows.length) this.push(rows);
              else {
                release();
                this.push(null);
              }
            },
            (error: Error) => this.destroy(error),
          );
        },
        destroy(error, done) {
          release();
          done(error);
        },
      });
      function connectionLost(error?: Error) {
        batches.destroy(error ?? new Error('the database connection closed during the catalog export'));
      }
      client.once('error', connectionLost).once('end', connectionLost);
      // An error between reads (the export's statement_timeout) fails the file now, not at the next read.
      cursor.on('error', (error) => batches.destroy(error));
      return batches;
    },

    /**
     * Each ISBN's book, if the shop has it, with its first copy (null when it has none): one statement
     * for the whole file, its ISBNs as one array parameter (the check runs on a serving instance, and
     * a query builder's IN list of thousands of values cost it more than the database's work).
     */
    async shopCopies(isbns: string[]) {
      const books = await db.$queryRaw<
        { isbn13: string; id: number | null; price: string | null; quantity: number | null; isAvailable: boolean | null }[]
      >`
        SELECT b.isbn13, c.id, c.price::text AS price, c.quantity, c.is_available AS "isAvailable"
        FROM books b
        LEFT JOIN LATERAL (SELECT id, price, quantity, is_available FROM book_copies WHERE book_id = b.id ORDER BY id LIMIT 1) c ON true
        WHERE b.isbn13 = ANY(${isbns}::char(13)[])`;
      const inShop = new Map<string, ShopCopy | null>();
      for (const { isbn13, id, price, quantity, isAvailable } of books) {
        inShop.set(
          isbn13,
          id !== null && price !== null && quantity !== null && isAvailable !== null ? { id, price, quantity, isAvailable } : null,
        );
      }
      return inShop;
    },

    /**
     * Of `rows` (ISBN, the book's first copy as shopCopies read it, and the ledger entry their file was
     * exported at), those whose copy's stock an import has moved since: each reads only the copy's
     * ledger entries after that one (its index by copy and id).
     */
    async importedSinceExport(rows: { isbn13: string; copyId: number; exportedLedger: number }[]) {
      if (rows.length === 0) return new Set<string>();
      const found = await db.$queryRaw<{ isbn13: string }[]>`
        SELECT f.isbn13
        FROM unnest(${rows.map((row) => row.isbn13)}::text[], ${rows.map((row) => row.copyId)}::int[],
                    ${rows.map((row) => row.exportedLedger)}::bigint[]) AS f(isbn13, copy_id, ledger)
        WHERE EXISTS (SELECT 1 FROM stock_movements m WHERE m.copy_id = f.copy_id AND m.id > f.ledger AND m.reason = 'import')`;
      return new Set(found.map((row) => row.isbn13));
    },

    /**
     * Stores a checked plan (new and changed rows: thousands for a big file) as the job's JSON, in
     * place of the employee's earlier checks not run: each is megabytes for a big file, and a loop of
     * checks kept every one for a day. The summary and plan go as JSON text parameters: a query
     * builder walking every value of the plan stalled the serving instance for hundreds of
     * milliseconds per thousand rows.
     */
    async createJob(who: AuditActor, summary: ImportSummary, plan: ImportPlanRow[]) {
      const [created] = await db.$queryRaw<{ id: number }[]>`
        WITH replaced AS (DELETE FROM import_jobs WHERE actor = ${who.actor} AND status = 'checked')
        INSERT INTO import_jobs (actor, address, total, summary, plan)
        VALUES (${who.actor}, ${who.address}, ${plan.length}::int, ${JSON.stringify(summary)}::jsonb, ${JSON.stringify(plan)}::jsonb)
        RETURNING id`;
      if (!created) throw new Error('storing an import job returned no row');
      return toJob(await db.importJob.findUniqueOrThrow({ where: { id: created.id }, omit: { plan: true } }));
    },

    async job(id: number) {
      const job = await db.importJob.findUnique({ where: { id }, omit: { plan: true } });
      return job && toJob(job);
    },

    /** The rows a checked job writes, as its check stored them (read as text: parsed once, here). */
    async plan(id: number) {
      const [stored] = await db.$queryRaw<{ plan: string }[]>`SELECT plan::text AS plan FROM import_jobs WHERE id = ${id}`;
      if (!stored) throw new Error(`import job ${id} is gone`);
      const plan: unknown = JSON.parse(stored.plan);
      if (!Array.isArray(plan) || !plan.every((row) => planRows.Check(row)))
        throw new Error(`import job ${id} holds a plan of another shape`);
      return plan;
    },

    /** Whether any instance's import holds the lock (is alive). */
    importLockHeld: async () =>
      (
        await db.$queryRaw<{ held: boolean }[]>`
          SELECT EXISTS (
            SELECT 1 FROM pg_locks
            WHERE locktype = 'advisory' AND classid = 0 AND objid = ${IMPORT_LOCK} AND objsubid = 1 AND granted
              -- Advisory locks are the database's: another database of the cluster (a staging copy) holds its own.
              AND database = (SELECT oid FROM pg_database WHERE datname = current_database())) AS held`
      )[0]?.held === true,

    /** Marks a checked job running; false when it is no longer checked (another request started it). */
    start: async (id: number, skipInvalid: boolean, who: AuditActor) =>
      (
        await db.importJob.updateMany({
          where: { id, status: 'checked' },
          data: { status: 'running', skipInvalid, actor: who.actor, address: who.address, updatedAt: new Date() },
        })
      ).count === 1,

    /** Rows written so far, outside the run's transaction so that every instance's screen sees it. */
    progress: (id: number, processed: number) =>
      db.importJob.update({ where: { id }, data: { processed, updatedAt: new Date() }, select: { id: true } }),

    /**
     * Marks a running job failed, not one the run's transaction marked done: a commit whose answer was
     * lost (the connection dropped just after it) is an error here, and saying "nothing was written"
     * of it would have the Admin run the same file again, moving its stock twice.
     */
    failed: (id: number, error: string) => {
      const now = new Date();
      return db.importJob.updateMany({
        where: { id, status: 'running' },
        data: { status: 'failed', processed: 0, error, updatedAt: now, finishedAt: now },
      });
    },

    /**
     * The run's one transaction, audited as the acting employee: the import lock (or a 409 when
     * another import holds it), the ledger's reason, the copies of `isbns` locked in id order, then
     * `work`; the job is marked done with the rows, so a crash after the commit cannot leave it
     * saying otherwise.
     *
     * It announces its copies' changes itself (the migration import_announces_its_catalog_changes):
     * `work` answers the copies whose stock alone it moved, none into or out of stock, and the
     * notices name them, so that the catalog caches forget only the answers that show them, as after a
     * sale. Anything else it wrote to copies (`null`) is announced as the triggers would have, and
     * every cache forgets everything. The notices go at the commit. It answers too the rows whose
     * stock stopped at a limit, which the job's summary keeps for the screen.
     */
    writeInOneTransaction: (id: number, isbns: string[], work: (writes: ImportWrites) => Promise<ImportWritten>) =>
      auditedTransaction(
        db,
        async (tx) => {
          const [lock] = await tx.$queryRaw<{ locked: boolean }[]>`SELECT pg_try_advisory_xact_lock(${IMPORT_LOCK}) AS locked`;
          if (!lock?.locked) throw refuse.importBusy();
          await nameStockReason(tx, 'import', `import:${id}`);
          await tx.$executeRaw`SELECT set_config('bookshop.catalog_notice', 'announced', true)`;
          // Locked first and in id order, as checkout and cancel lock theirs: a long import and a
          // checkout then wait on each other, never deadlock.
          await tx.$queryRaw`
            SELECT c.id FROM book_copies c JOIN books b ON b.id = c.book_id
            WHERE b.isbn13 = ANY(${isbns}::char(13)[]) ORDER BY c.id FOR UPDATE OF c`;
          const { stockMovedAlone, stopped, stoppedRows } = await work(importWrites(tx));
          const notices = stockMovedAlone ? soldNotices(stockMovedAlone) : [''];
          await tx.$executeRaw`SELECT pg_notify(${CATALOG_CHANGED_CHANNEL}, notice) FROM unnest(${notices}::text[]) AS notice`;
          const marked = await tx.$executeRaw`
            UPDATE import_jobs
            SET status = 'done', processed = ${isbns.length}::int, updated_at = statement_timestamp(), finished_at = statement_timestamp(),
                summary = summary || jsonb_build_object('stopped', ${stopped}::int, 'stoppedRows', ${JSON.stringify(stoppedRows)}::jsonb)
            WHERE id = ${id}`;
          if (marked !== 1) throw new Error(`import job ${id} is gone`);
        },
        { timeout: IMPORT_TIMEOUT_MS, maxWait: 10_000 },
      ),
  };
}

export type CatalogTransferRepository = ReturnType<typeof catalogTransferRepository>;

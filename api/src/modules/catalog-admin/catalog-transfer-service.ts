// Bulk export and import of books with their copies (beyond the spec).
// - Export: CSV streamed from a database cursor as the download takes it (the repository), so a
//   catalog of any size never sits in memory and the first line leaves at once.
// - Import: a CSV of isbn, price, stock and available, and the export's exported_stock when the file
//   came from an export (decision record 12). The check reads the file, compares it with the shop and
//   looks up the ISBNs the shop lacks through Add Book's lookup (catalog-import-plan.ts decides), and
//   stores the plan as a job; nothing is written. The run, on the Admin's word, writes the plan as a
//   background job whose progress any instance can read (catalog-import-runner.ts).
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyBaseLogger } from 'fastify';
import pLimit from 'p-limit';
import { answerWithin } from '../../lib/answer-within.ts';
import { refuse } from '../../lib/refusals.ts';
import { CHECK_TIME_LIMIT_MS } from '../../request-limits.ts';
import type { ImportedChanges } from '../catalog/catalog-events.ts';
import type { AuditActor } from '../security/audit.ts';
import type { CatalogAdminService } from './catalog-admin-service.ts';
import { changesStockSinceLedger, isbnsToLookUp, type LookupOutcome, planImport, readImportFile } from './catalog-import-plan.ts';
import { catalogImportRunner } from './catalog-import-runner.ts';
import type { CatalogTransferRepository, ExportRow, ImportJob } from './catalog-transfer-repository.ts';
import { ISBN_LOOKUP_TIMEOUT_MS, type IsbnLookup } from './isbn-lookup.ts';

export { IMPORT_COLUMNS } from './catalog-import-plan.ts';
export { EXPORT_TIME_LIMIT_MS } from './catalog-transfer-repository.ts';
/**
 * exported_stock, exported_price and exported_available repeat what the export saw, for the import
 * to tell the file's edits from the shop's changes since: edit stock, price and available, not them.
 * copy_id names the copy they were read from: the import writes a book's first copy, and one that is
 * another copy now (a copy moved to the book, or its first deleted) is not the one the row describes.
 * exported_ledger is the stock ledger's last entry then (stock_movements.id): a stock change an import
 * made since (this very file's, run before) is the file's own, not a sale to keep.
 */
export const EXPORT_COLUMNS = [
  'isbn',
  'title',
  'author',
  'category',
  'price',
  'stock',
  'available',
  'exported_stock',
  'exported_price',
  'exported_available',
  'copy_id',
  'exported_ledger',
] as const;

/**
 * Exports one instance streams at once. Each holds a connection of the primary pool for as long as its
 * download runs (up to 30 minutes), so a few slow downloads would otherwise leave the shop's calls
 * without connections (503 for everyone); beyond this, another export is refused for a while.
 */
export const EXPORTS_AT_ONCE = 2;

/** ISBN lookups at once: enough to be quick, few enough to be polite to Open Library. */
const LOOKUPS_AT_ONCE = 8;
/**
 * Lookups start within this of the check's start: the last one, at its own time limit, ends with
 * 15 s of the check's limit left for the plan and its job.
 */
const LOOKUPS_TIME_BUDGET_MS = CHECK_TIME_LIMIT_MS - ISBN_LOOKUP_TIMEOUT_MS - 15_000;
/** A check older than this is checked again before it runs: the shop may have moved since. */
const CHECK_VALID_MS = 30 * 60_000;
/** How long a job may show running before its lock is taken (the run's first statements). */
const START_GRACE_MS = 30_000;
const DIED = 'The import stopped before it finished, and nothing was written. Check the file again to retry.';

/** A cell a spreadsheet would run as a formula gets a leading apostrophe (CSV injection). */
const spreadsheetSafe = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

const NEEDS_QUOTES = /[",\r\n]/;
/**
 * A text field as RFC 4180 writes it, as csv-stringify does (the tests compare the file with its
 * output; the import reads it back with csv-parse): quoted, its quotes doubled, when it holds a
 * comma, a quote or a line break. Written here rather than by csv-stringify because the export
 * writes a record per copy, a million at a million books, and the library's checks of each field's
 * type and options took over half of the server's time for the file.
 */
const csvText = (text: string) => (NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text);

/** A name field: kept from running as a formula, then quoted as CSV needs. */
const nameField = (text: string) => csvText(spreadsheetSafe(text));

const EXPORT_HEADER = `${EXPORT_COLUMNS.join(',')}\n`;

/**
 * The export's line of a row, in EXPORT_COLUMNS' order, ended by a line feed; a book without copies
 * has empty copy fields. Only the names can hold a character CSV quotes: the ISBN is digits, and the
 * rest are numbers and booleans as PostgreSQL prints them, written as they are (a list of fields and a
 * check of each cost seconds at a million books).
 */
function exportLine(row: ExportRow): string {
  const book = `${row.isbn13 ?? ''},${nameField(row.title)},${nameField(row.author)},${nameField(row.category)}`;
  const { copyId, price, quantity: stock, isAvailable: available, ledger } = row;
  // The ledger is the file's, not the copy's: a row that makes the book's first copy is made once too.
  if (copyId === null || price === null || stock === null || available === null) return `${book},,,,,,,,${ledger}\n`;
  return `${book},${price},${stock},${available},${stock},${price},${available},${copyId},${ledger}\n`;
}

export function catalogTransferService(
  repo: CatalogTransferRepository,
  lookupIsbn: IsbnLookup,
  catalogAdmin: CatalogAdminService,
  log: FastifyBaseLogger,
  onWritten: (changed: ImportedChanges) => void,
) {
  const runImport = catalogImportRunner(repo, log, onWritten);
  /** The exports streaming now, counted from before their connection is taken: the cap's count, and what shutdown cuts. */
  const openExports = new Set<Readable>();
  /** The imports this instance is running (each settles, failed or not): what shutdown lets finish. */
  const runningImports = new Set<Promise<void>>();

  /** The job as the screen shows it; a job marked running whose lock nobody holds died with its instance. */
  const view = async ({ summary, ...job }: ImportJob) => {
    const died = job.status === 'running' && Date.now() - job.updatedAt.getTime() > START_GRACE_MS && !(await repo.importLockHeld());
    return {
      id: job.id,
      status: died ? ('failed' as const) : job.status,
      ...summary,
      // Jobs checked before the ledger (decision record 12) have no moved rows or warnings.
      moved: summary.moved ?? 0,
      movedRows: summary.movedRows ?? [],
      // Known once the run is done (and jobs run before it was kept have none).
      stopped: summary.stopped ?? 0,
      stoppedRows: summary.stoppedRows ?? [],
      warnings: summary.warnings ?? [],
      skipInvalid: job.skipInvalid,
      total: job.total,
      processed: died ? 0 : job.processed,
      error: died ? DIED : job.error,
      createdAt: job.createdAt.toISOString(),
      finishedAt: job.finishedAt?.toISOString() ?? null,
    };
  };

  /**
   * What the lookup says of each ISBN, a few at a time; a new book's category is Add Book's choice.
   * None starts once the check's time is nearly spent (a slow Open Library took 8 s a lookup, 200 s for
   * 200 new books, past the check's 2 minutes) or its request has ended: those count as failed, which
   * the dry run names ("check the file again later"), instead of running on for an answer nobody reads.
   */
  async function lookUp(isbns: string[], signal?: AbortSignal) {
    const limit = pLimit(LOOKUPS_AT_ONCE);
    const lastStart = Date.now() + LOOKUPS_TIME_BUDGET_MS;
    const outcomes = await Promise.all(
      isbns.map((isbn13) =>
        limit(async (): Promise<[string, LookupOutcome]> => {
          if (signal?.aborted || Date.now() > lastStart) return [isbn13, 'failed'];
          const found = await lookupIsbn(isbn13).catch(() => 'failed' as const);
          if (found === 'failed') return [isbn13, 'failed'];
          if (!found) return [isbn13, 'not found'];
          return [isbn13, { found: { ...found, typeId: await catalogAdmin.categoryOf(found) } }];
        }),
      ),
    );
    return new Map(outcomes);
  }

  async function job(id: number) {
    const found = await repo.job(id);
    if (!found) throw refuse.noImport();
    return found;
  }

  return {
    /**
     * The export as CSV text, the header first, one record per copy (a book without copies: one with
     * empty copy fields). After the header, the text leaves `EXPORT_BATCH` records a chunk, as the
     * cursor gives them: a chunk a record cost a write to the socket, or to the compressor's thread,
     * each (most of a million books' minute: docs/performance.md, "The export, a batch of records a
     * chunk"). The cursor is open before this answers, so an unreachable database is a 503 and not a
     * file cut short; a reader that leaves ends the cursor (the pipeline destroys both). Beyond
     * `EXPORTS_AT_ONCE` exports streaming on this instance, a 503 with Retry-After.
     */
    async exportFile(): Promise<Readable> {
      if (openExports.size >= EXPORTS_AT_ONCE) throw refuse.exportsBusy(EXPORTS_AT_ONCE);
      const file = new Transform({
        writableObjectMode: true,
        // The batches' own stream reads ahead; one batch waiting here is enough.
        writableHighWaterMark: 1,
        transform(batch: ExportRow[], _encoding, done) {
          done(null, batch.map(exportLine).join(''));
        },
      });
      openExports.add(file);
      file.once('close', () => openExports.delete(file));
      let batches: Readable;
      try {
        batches = await repo.exportBatches();
      } catch (error) {
        file.destroy();
        throw error;
      }
      file.push(EXPORT_HEADER);
      // A failure reaches the reader through `file`, which the pipeline destroys with it.
      pipeline(batches, file).catch(() => {});
      return file;
    },

    /**
     * Fails every export still streaming, so that shutdown need not wait for a slow or stalled
     * download (up to 30 minutes): each reader sees its download cut off, never a complete-looking file.
     */
    stopExports() {
      for (const records of openExports) records.destroy(new Error('the server is shutting down'));
    },

    /**
     * Whether this instance's imports have all ended by `deadline` (a time): shutdown waits on it before
     * the pool closes, so an import under way is written rather than rolled back for a restart.
     */
    importsEndedBy(deadline: number) {
      // An import never fails its promise (the runner catches and marks the job): a failure here is the deadline.
      return answerWithin(Promise.all(runningImports), Math.max(0, deadline - Date.now())).then(
        () => true,
        () => false,
      );
    },

    /**
     * The check: reads the file, compares it with the shop and stores the plan as a job; writes nothing
     * to the catalog. Null when `signal` ended it (its time limit answered, or the Admin left): no job
     * is kept that nobody will see.
     */
    async check(text: string, who: AuditActor, signal?: AbortSignal) {
      const file = readImportFile(text);
      const inShop = await repo.shopCopies(file.checked.map((row) => row.isbn13));
      const importedSince = await repo.importedSinceExport(
        file.checked.filter(changesStockSinceLedger).flatMap((row) => {
          const copyId = inShop.get(row.isbn13)?.id;
          return copyId === undefined ? [] : [{ isbn13: row.isbn13, copyId, exportedLedger: row.exportedLedger }];
        }),
      );
      const { summary, rows } = planImport(file, inShop, await lookUp(isbnsToLookUp(file, inShop), signal), importedSince);
      if (signal?.aborted) return null;
      return view(await repo.createJob(who, summary, rows));
    },

    job: async (id: number) => view(await job(id)),

    /** Starts a checked import in the background; answers at once with the job, now running. */
    async run(id: number, skipInvalid: boolean, who: AuditActor) {
      const checked = await job(id);
      if (checked.status !== 'checked') throw refuse.importAlreadyRun();
      if (Date.now() - checked.createdAt.getTime() > CHECK_VALID_MS) throw refuse.importCheckExpired();
      if (checked.summary.invalid > 0 && !skipInvalid) throw refuse.importHasInvalidRows();
      if (await repo.importLockHeld()) throw refuse.importBusy();
      if (!(await repo.start(id, skipInvalid, who))) throw refuse.importAlreadyRun();
      const running = runImport(id, who).finally(() => runningImports.delete(running));
      runningImports.add(running);
      return view(await job(id));
    },
  };
}

export type CatalogTransferService = ReturnType<typeof catalogTransferService>;

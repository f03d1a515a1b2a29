// The import's run: a background job that writes a checked plan in one transaction, audited as
// the Admin who ran it, counting its progress where every instance can read it. A failure writes
// nothing and says so on the job.
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../lib/errors.ts';
import { refuse } from '../../lib/refusals.ts';
import { writeBudgets } from '../../lib/write-budget.ts';
import { IMPORT_REPORTED_INVALID, type ImportPlanRow, type StoppedImportRow } from '../../schemas/staff.ts';
import type { ImportedChanges } from '../catalog/catalog-events.ts';
import { type AuditActor, auditContext } from '../security/audit.ts';
import type { CatalogTransferRepository, ImportWrites } from './catalog-transfer-repository.ts';

/**
 * Rows written per statement, and so per progress step: a few statements for the largest file
 * rather than four per row (a 1,000-row import took 4,000 statements through the query builder, and
 * its instance's CPU with them, while it served shoppers).
 */
const ROWS_PER_STATEMENT = 500;
const FAILED = 'The import failed, and nothing was written. Check the file again to retry.';
/**
 * The most copies an import of stock alone names to the catalog caches (500 a notice). Past it every
 * instance forgets everything, as for any other import: each notice costs each instance a pass over
 * its kept answers, and a file that large reaches most of them anyway.
 */
export const NAMED_COPIES_MOST = 5_000;

export function catalogImportRunner(
  repo: CatalogTransferRepository,
  log: FastifyBaseLogger,
  onWritten: (changed: ImportedChanges) => void,
) {
  /**
   * The books the check looked up and the shop still lacks, added as Add Book adds them (at most
   * IMPORT_MAX_NEW_BOOKS a file). A book added since the check is updated like any other; one
   * removed since is created again.
   */
  async function addFoundBooks(writes: ImportWrites, rows: ImportPlanRow[]) {
    const absent = await writes.absentBooks(rows.filter((row) => row.found).map((row) => row.isbn13));
    let added = false;
    for (const row of rows) {
      if (row.found && absent.has(row.isbn13)) {
        await writes.addFoundBook(row.isbn13, row.found);
        added = true;
      }
    }
    return added;
  }

  async function runImport(jobId: number, who: AuditActor) {
    try {
      const rows = await repo.plan(jobId);
      // What the projections need to know (catalog-projections.ts): an import of prices and stock alone
      // leaves the search projections as they were.
      const changed: ImportedChanges = { booksAdded: false, availabilityChanged: false };
      await auditContext.run(who, () =>
        repo.writeInOneTransaction(
          jobId,
          rows.map((row) => row.isbn13),
          async (writes) => {
            changed.booksAdded = await addFoundBooks(writes, rows);
            // The copies whose stock alone moved, while every statement moved nothing else.
            let stockMovedAlone: number[] | null = changed.booksAdded ? null : [];
            // Every row whose stock stopped at a limit is counted; the first few hundred are kept to name.
            let stopped = 0;
            const stoppedNamed: StoppedImportRow[] = [];
            for (let done = 0; done < rows.length; done += ROWS_PER_STATEMENT) {
              const {
                missingLine,
                otherCopyLine,
                priceChangedLine,
                importedSinceLine,
                stoppedRows,
                availabilityChanged,
                copyIds,
                stockAlone,
              } = await writes.writeCopies(rows.slice(done, done + ROWS_PER_STATEMENT));
              changed.availabilityChanged ||= availabilityChanged;
              stopped += stoppedRows.length;
              stoppedNamed.push(...stoppedRows.slice(0, IMPORT_REPORTED_INVALID - stoppedNamed.length));
              if (!stockAlone) stockMovedAlone = null;
              else stockMovedAlone?.push(...copyIds);
              if (missingLine !== null)
                throw refuse.form(`The book of line ${missingLine} is no longer in the shop; check the file again.`);
              if (otherCopyLine !== null)
                throw refuse.form(`The book of line ${otherCopyLine} has another first copy than the one exported; check the file again.`);
              if (priceChangedLine !== null)
                throw refuse.form(`The price of line ${priceChangedLine} changed in the shop since the check; check the file again.`);
              // Another check of the same file, run since this one was checked: its stock change is in the shop already.
              if (importedSinceLine !== null)
                throw refuse.form(
                  `An import changed the stock of line ${importedSinceLine} since the file was exported (this file, run already?); export again.`,
                );
              // Between statements only: the last one's count is the job's end, written in the transaction.
              // (Progress takes a second connection; sales waiting on the copies this transaction locks
              // can hold all of the pool's, so a step it need not take is one fewer wait on them.)
              if (done + ROWS_PER_STATEMENT < rows.length) await repo.progress(jobId, done + ROWS_PER_STATEMENT);
            }
            // Past NAMED_COPIES_MOST every instance forgets everything instead.
            const named = stockMovedAlone && stockMovedAlone.length <= NAMED_COPIES_MOST ? stockMovedAlone : undefined;
            changed.stockMovedAlone = named;
            return { stockMovedAlone: named ?? null, stopped, stoppedRows: stoppedNamed };
          },
        ),
      );
      onWritten(changed);
    } catch (error) {
      log.error({ err: error, importJob: jobId }, 'an import failed and wrote nothing');
      await repo
        .failed(jobId, error instanceof AppError ? error.message : FAILED)
        .catch((e: Error) => log.error({ err: e, importJob: jobId }, 'could not mark an import as failed'));
    }
  }

  // The job outlives the request that starts it: its writes are not that request's (lib/write-budget.ts).
  return (jobId: number, who: AuditActor) => writeBudgets.exit(() => runImport(jobId, who));
}

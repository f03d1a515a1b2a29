// The import's run: a background job that writes a checked plan in one transaction, audited as
// the Admin who ran it, counting its progress where every instance can read it. A failure writes
// nothing and says so on the job.
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../lib/errors.ts';
import { refuse } from '../../lib/refusals.ts';
import type { ImportPlanRow } from '../../schemas/staff.ts';
import { type AuditActor, auditContext } from '../security/audit.ts';
import type { CatalogTransferRepository, ImportWrites } from './catalog-transfer-repository.ts';

const PROGRESS_EVERY = 100;
const FAILED = 'The import failed, and nothing was written. Check the file again to retry.';

export function catalogImportRunner(repo: CatalogTransferRepository, log: FastifyBaseLogger, onWritten: () => void) {
  /** Writes one row: the book when the shop lacks it (as Add Book does), then its first copy. */
  async function writeRow(writes: ImportWrites, row: ImportPlanRow) {
    const existing = await writes.book(row.isbn13);
    // A book added since the check is updated like any other; one removed since is created again.
    let bookId = existing?.id;
    if (bookId === undefined && row.found) bookId = (await writes.addFoundBook(row.isbn13, row.found)).id;
    if (bookId === undefined) throw refuse.form(`The book of line ${row.line} is no longer in the shop; check the file again.`);
    const copy = { price: row.price, quantity: row.stock, isAvailable: row.available };
    const copyId = existing?.firstCopyId;
    if (copyId === undefined) await writes.createCopy(bookId, copy);
    // With exported_stock the row is a change, so sales since the export (and since the check) stand.
    else if (row.exportedStock !== undefined) await writes.changeCopy(copyId, copy, row.stock - row.exportedStock);
    else await writes.setCopy(copyId, copy);
  }

  return async function runImport(jobId: number, who: AuditActor) {
    try {
      const rows = await repo.plan(jobId);
      await auditContext.run(who, () =>
        repo.writeInOneTransaction(
          jobId,
          rows.map((row) => row.isbn13),
          async (writes) => {
            for (const [index, row] of rows.entries()) {
              await writeRow(writes, row);
              if ((index + 1) % PROGRESS_EVERY === 0) await repo.progress(jobId, index + 1);
            }
          },
        ),
      );
      onWritten();
    } catch (error) {
      log.error({ err: error, importJob: jobId }, 'an import failed and wrote nothing');
      await repo
        .failed(jobId, error instanceof AppError ? error.message : FAILED)
        .catch((e: Error) => log.error({ err: e, importJob: jobId }, 'could not mark an import as failed'));
    }
  };
}

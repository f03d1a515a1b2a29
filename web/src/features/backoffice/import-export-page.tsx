import { type FormEvent, type ReactNode, useState } from 'react';
import { isNotFound } from '../../api/client';
import { BusyButton, SubmitButton } from '../../components/busy-button';
import { type DataColumn, DataTable } from '../../components/data-table';
import { Notice, useNotice } from '../../components/notice';
import { useDocumentTitle } from '../../lib/document-title';
import { failureReason } from '../../lib/failure-reason';
import { useCheckImport } from './api/check-import';
import { downloadCatalogCsv } from './api/export-catalog';
import { useImport } from './api/get-import';
import { useRunImport } from './api/run-import';
import { useStepUpGuard } from './step-up';

const rowsCount = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'row' : 'rows'}`;

/** The first two columns of a reported row: where it is in the file, and its book. */
const lineAndIsbn = <Row extends { line: number; isbn: string }>(): DataColumn<Row>[] => [
  { label: 'Line', cell: (r) => r.line },
  { label: 'ISBN', cell: (r) => r.isbn || '—' },
];

/**
 * Rows the job reports by line (invalid, moved, stopped): the first few hundred of `count`, saying so
 * when there are more.
 */
function ReportedRows<Row extends { line: number }>({
  title,
  count,
  rows,
  columns,
  children,
}: {
  title: string;
  count: number;
  rows: Row[];
  columns: DataColumn<Row & { id: number }>[];
  children?: ReactNode;
}) {
  if (count === 0) return null;
  return (
    <>
      <h3>{title}</h3>
      {children}
      {count > rows.length && (
        <p className="muted">
          The first {rows.length} of {count.toLocaleString('en-US')}:
        </p>
      )}
      <DataTable rows={rows.map((r) => ({ ...r, id: r.line }))} columns={columns} />
    </>
  );
}

/** The import's state once checked: its counts, its invalid rows, then its progress and end. */
function ImportJob({ id, onNotice }: { id: number; onNotice: (text: string, failed?: unknown) => void }) {
  const job = useImport(id);
  const run = useRunImport();
  const stepUp = useStepUpGuard();
  const [skipInvalid, setSkipInvalid] = useState(false);
  if (job.isPending) return <p className="muted">Loading...</p>;
  // A poll that failed with the job already on screen keeps it there (the next poll may well answer),
  // and says over it that the progress shown may be behind; a job that is gone (404: a newer check
  // replaced it) is not kept.
  if (!job.data || (job.isError && isNotFound(job.error))) {
    return <p role="alert">The import could not be read. {failureReason(job.error)}</p>;
  }
  const j = job.data;
  const behind = job.isError ? <p role="alert">The import's progress could not be read just now. {failureReason(job.error)}</p> : null;
  const blocked = j.invalid > 0 && !skipInvalid;
  // The run's mutation refreshes this job's read (and after a refusal that says it is stale), which
  // then follows the progress.
  const start = () =>
    stepUp.guard(() => run.mutateAsync({ id, skipInvalid })).catch((error) => onNotice('The import could not start.', error));
  return (
    <div className="import-job">
      {stepUp.prompt}
      {behind}
      <h2>Dry run</h2>
      <dl className="import-counts">
        {(
          [
            ['Rows', j.rows],
            ['New', j.new],
            ['Changed', j.changed],
            ['Unchanged', j.unchanged],
            ['Invalid', j.invalid],
          ] as const
        ).map(([label, count]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{count.toLocaleString('en-US')}</dd>
          </div>
        ))}
      </dl>
      {/* What the run would do that the counts do not say: sold copies back in stock, staff changes undone. */}
      {j.warnings.map((warning) => (
        <p key={warning} className="warning">
          {warning}
        </p>
      ))}
      <ReportedRows
        title="Stock moved since the export"
        count={j.moved}
        rows={j.movedRows}
        columns={[
          ...lineAndIsbn(),
          { label: 'Exported stock', cell: (r) => r.exportedStock },
          { label: 'Stock now', cell: (r) => r.stockNow },
          { label: 'Stock after the import, as checked', cell: (r) => r.stockAfter },
        ]}
      />
      <ReportedRows
        title="Invalid rows"
        count={j.invalid}
        rows={j.invalidRows}
        columns={[...lineAndIsbn(), { label: 'Reason', cell: (r) => r.reason }]}
      />
      {j.status === 'checked' && (
        <div className="import-actions">
          {j.invalid > 0 && (
            <div className="inline-form">
              <label className="check">
                <input type="checkbox" checked={skipInvalid} onChange={(e) => setSkipInvalid(e.target.checked)} />
                Skip the invalid rows
              </label>
            </div>
          )}
          {j.total === 0 ? (
            <p>Nothing to write: every valid row matches the shop already.</p>
          ) : (
            <>
              <p>
                {rowsCount(j.total)} to write. {blocked && 'A file with invalid rows writes nothing unless you skip them.'}
              </p>
              <BusyButton onClick={start} busy={run.isPending} notReady={blocked}>
                Import
              </BusyButton>
            </>
          )}
        </div>
      )}
      {(j.status === 'running' || j.status === 'done') && (
        <div className="import-progress">
          <progress aria-label="Import progress" value={j.processed} max={Math.max(1, j.total)} />
          <p role="status">
            {j.status === 'running'
              ? `Written ${j.processed.toLocaleString('en-US')} of ${rowsCount(j.total)}...`
              : `Import finished: ${rowsCount(j.total)} written.${j.stopped > 0 ? ` ${rowsCount(j.stopped)} stopped at a limit (listed below).` : ''}`}
          </p>
        </div>
      )}
      {/* Sales between the check and the run can leave less stock than a row takes away: the run does not fail the file for it. */}
      {j.status === 'done' && (
        <ReportedRows
          title="Stock stopped at a limit"
          count={j.stopped}
          rows={j.stoppedRows}
          columns={[
            ...lineAndIsbn(),
            { label: 'Stock at the import', cell: (r) => r.stockBefore },
            { label: "The file's change", cell: (r) => (r.change > 0 ? `+${r.change}` : r.change) },
            { label: 'Stock after the import', cell: (r) => r.stockAfter },
          ]}
        >
          <p className="warning">
            {j.stopped === 1 ? 'One row' : `${j.stopped.toLocaleString('en-US')} rows`} could not change the stock in full: sales or
            restocks since the check left less stock than the file took away, or more than the most a copy holds. Check{' '}
            {j.stopped === 1 ? 'its copy' : 'their copies'} on the Book Copies screen.
          </p>
        </ReportedRows>
      )}
      {j.status === 'failed' && <p role="alert">{j.error}</p>}
    </div>
  );
}

/**
 * /importexport (Admin, beyond the spec): every book with its copies as CSV, and an import of
 * isbn, price, stock and available that is checked first (nothing written), then run as a job with
 * its progress on screen. The audit log records every row it changes.
 */
export default function ImportExportPage() {
  useDocumentTitle('Import & Export');
  const [notice, show] = useNotice();
  const report = (text: string, failed?: unknown) => (failed ? show(text, 'error', failureReason(failed)) : show(text));
  const [file, setFile] = useState<File | null>(null);
  const [jobId, setJobId] = useState<number | null>(null);
  const [exporting, setExporting] = useState(false);
  const check = useCheckImport();

  const exportCsv = () => {
    setExporting(true);
    downloadCatalogCsv()
      .then(() => report('Export downloaded.'))
      .catch((error) => report('The export failed.', error))
      .finally(() => setExporting(false));
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!file) return;
    setJobId(null);
    try {
      const job = await check.mutateAsync(await file.text());
      setJobId(job.id);
    } catch (error) {
      report('The file could not be checked.', error);
    }
  };

  return (
    <section>
      <h1>Import &amp; Export</h1>
      <Notice notice={notice} />
      <h2>Export</h2>
      <p className="muted">Every book with its copies: isbn, title, author, category, price, stock, available; one row per copy.</p>
      <BusyButton onClick={exportCsv} busy={exporting}>
        Export Books as CSV
      </BusyButton>
      <h2>Import</h2>
      <p className="muted">
        A CSV file whose first line names the columns isbn, price, stock and available. Each row creates or updates the book (looked up by
        its ISBN, as Add Book does) and its copy. The file is checked first; nothing is written until you confirm.
      </p>
      <form className="inline-form" onSubmit={submit}>
        <label>
          CSV file
          <input type="file" accept=".csv,text/csv" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        </label>
        <SubmitButton busy={check.isPending} notReady={!file} look="plain">
          Check File
        </SubmitButton>
      </form>
      {check.isPending && <p className="muted">Checking the file...</p>}
      {jobId !== null && <ImportJob key={jobId} id={jobId} onNotice={report} />}
    </section>
  );
}

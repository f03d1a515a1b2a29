import { LOW_STOCK_THRESHOLD_MAX, STOCK_MAX } from '@bookshop/rules';
import { type FormEvent, useRef, useState } from 'react';
import { SubmitButton } from '../../components/busy-button';
import { DataTable } from '../../components/data-table';
import { Notice, useNotice } from '../../components/notice';
import { Paging } from '../../components/paging';
import { QueryView } from '../../components/query-view';
import { useDocumentTitle } from '../../lib/document-title';
import { failureReason } from '../../lib/failure-reason';
import { money } from '../../lib/format';
import { useSession } from '../../lib/session';
import { usePageInAddress } from '../../lib/use-address-state';
import { useLowStock } from './api/get-low-stock';
import { useRestockCopy } from './api/restock-copy';
import { useSetLowStockThreshold } from './api/set-low-stock-threshold';
import { StockHistory } from './stock-history';

/** The threshold form, for the Admin: shown once the current threshold is known, starting from it. */
function ThresholdForm({ threshold, onSaved }: { threshold: number; onSaved: (text: string, failed?: unknown) => void }) {
  const [value, setValue] = useState(String(threshold));
  const save = useSetLowStockThreshold();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutateAsync(Number(value)).then(
      () => onSaved('Threshold saved.'),
      (error) => onSaved('The threshold could not be saved.', error),
    );
  };
  return (
    <form className="inline-form" onSubmit={submit}>
      <label>
        Low-stock threshold
        <input
          type="number"
          min={0}
          max={LOW_STOCK_THRESHOLD_MAX}
          step={1}
          required
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
      </label>
      <SubmitButton busy={save.isPending} notReady={value === String(threshold)} look="plain">
        Save Threshold
      </SubmitButton>
    </form>
  );
}

/** Units to add to one copy, and the button that adds them. */
function RestockCell({ copyId, onDone }: { copyId: number; onDone: (text: string, failed?: unknown) => void }) {
  const [units, setUnits] = useState('10');
  const restock = useRestockCopy();
  // The restock last sent and not known done, by its units and key: Restock clicked again after a
  // failure (a timeout, when the first try was in fact done) with the same units, retyped or not, is
  // the same restock, and the server adds them once. Other units, or a restock done, make a new one.
  const pending = useRef<{ units: string; key: string } | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (pending.current?.units !== units) pending.current = { units, key: crypto.randomUUID() };
    restock.mutateAsync({ copyId, add: Number(units), requestKey: pending.current.key }).then(
      ({ quantity }) => {
        pending.current = null;
        onDone(`Copy ${copyId} restocked: ${quantity} in stock.`);
      },
      (error) => onDone(`Copy ${copyId} could not be restocked.`, error),
    );
  };
  return (
    <form className="inline-form restock" onSubmit={submit}>
      <input
        type="number"
        min={1}
        max={STOCK_MAX}
        step={1}
        required
        aria-label={`Units to add to copy ${copyId}`}
        value={units}
        onChange={(e) => setUnits(e.target.value)}
      />
      <SubmitButton busy={restock.isPending} look="plain">
        Restock
      </SubmitButton>
    </form>
  );
}

/**
 * /lowstock (Admin and Seller, beyond the spec): the copies at or below the Admin's threshold, the
 * fastest sellers of the last 30 days first, each with a restock. A restock tells the clients who
 * wish for the copy that it is back, and the audit log records it.
 */
export default function LowStockPage() {
  useDocumentTitle('Low Stock');
  const { userType } = useSession();
  const [page, setPage] = usePageInAddress();
  const list = useLowStock(page);
  const [notice, show] = useNotice();
  const report = (text: string, failed?: unknown) => (failed ? show(text, 'error', failureReason(failed)) : show(text));
  const [historyOf, setHistoryOf] = useState<{ copyId: number; bookName: string } | null>(null);

  return (
    <section>
      <h1>Low Stock</h1>
      <Notice notice={notice} />
      <QueryView query={list} what="the low-stock copies">
        {(data) => (
          <>
            {userType === 'Admin' && <ThresholdForm key={data.threshold} threshold={data.threshold} onSaved={report} />}
            <p className="muted">
              Copies with {data.threshold} or fewer units in stock, the fastest sellers of the last 30 days first (
              {data.totalCopies.toLocaleString('en-US')} in all).
            </p>
            {!data.copies.length ? (
              <p className="empty">No copy is at or below the threshold.</p>
            ) : (
              <DataTable
                rows={data.copies.map((c) => ({ ...c, id: c.copyId }))}
                columns={[
                  { label: 'Copy ID', cell: (c) => c.copyId },
                  { label: 'Book', cell: (c) => c.bookName },
                  { label: 'Author', cell: (c) => c.authorName },
                  { label: 'In Stock', cell: (c) => c.quantity },
                  { label: 'Sold (30 days)', cell: (c) => c.unitsSold30Days },
                  { label: 'Price', cell: (c) => money(c.price) },
                  { label: 'Available', cell: (c) => (c.isAvailable ? 'Yes' : 'No') },
                  { label: 'Restock', cell: (c) => <RestockCell copyId={c.copyId} onDone={report} /> },
                  {
                    label: 'History',
                    cell: (c) => (
                      <button type="button" onClick={() => setHistoryOf(c)} aria-label={`Stock history of ${c.bookName}`}>
                        History
                      </button>
                    ),
                  },
                ]}
              />
            )}
          </>
        )}
      </QueryView>
      <Paging page={page} totalPages={list.data?.totalPages} onPage={setPage} label="Low stock pages" />
      {historyOf && <StockHistory copyId={historyOf.copyId} bookName={historyOf.bookName} onClose={() => setHistoryOf(null)} />}
    </section>
  );
}

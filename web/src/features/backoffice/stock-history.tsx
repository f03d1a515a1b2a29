// A copy's stock history (beyond the spec, decision record 12): every change of its stock, newest
// first, with why (a sale, a staff edit, an import, a restock...), who, and the stock after it.
import { useState } from 'react';
import type { Schemas } from '../../api/types';
import { DataTable } from '../../components/data-table';
import { Modal } from '../../components/modal';
import { Paging } from '../../components/paging';
import { QueryView } from '../../components/query-view';
import { useStockMovements } from './api/get-stock-movements';

type Movement = Schemas['StockMovement'];

const REASONS: Record<Movement['reason'], string> = {
  opening: 'Stock when the ledger began',
  new_copy: 'New copy',
  sale: 'Sale',
  cancellation: 'Cancelled order',
  staff_edit: 'Staff edit',
  import: 'Import',
  restock: 'Restock',
  correction: 'Changed outside the shop',
};

export function StockHistory({ copyId, bookName, onClose }: { copyId: number; bookName: string; onClose: () => void }) {
  const [page, setPage] = useState(1);
  const history = useStockMovements(copyId, page);
  return (
    <Modal title={`Stock history of ${bookName}`} onClose={onClose}>
      <h2>Stock history of {bookName}</h2>
      <QueryView query={history} what="the stock history">
        {(data) => (
          <>
            <DataTable<Movement>
              rows={data.movements}
              columns={[
                { label: 'When', cell: (m) => new Date(m.at).toLocaleString('en-GB', { timeZone: 'UTC' }) },
                { label: 'Why', cell: (m) => `${REASONS[m.reason]}${m.reference ? ` (${m.reference})` : ''}` },
                { label: 'Change', cell: (m) => (m.change > 0 ? `+${m.change}` : String(m.change)) },
                { label: 'Stock after', cell: (m) => m.stockAfter },
                { label: 'By', cell: (m) => m.actor ?? '' },
              ]}
            />
            <Paging page={page} totalPages={data.totalPages} onPage={setPage} />
          </>
        )}
      </QueryView>
    </Modal>
  );
}

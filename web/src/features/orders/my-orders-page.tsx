import { useEffect, useState } from 'react';
import type { Schemas } from '../../api/types';
import { BusyButton } from '../../components/busy-button';
import { DataTable } from '../../components/data-table';
import { Modal } from '../../components/modal';
import { Notice, useNotice } from '../../components/notice';
import { Paging } from '../../components/paging';
import { QueryView } from '../../components/query-view';
import { useDocumentTitle } from '../../lib/document-title';
import { failureReason } from '../../lib/failure-reason';
import { dateTime, money } from '../../lib/format';
import { LoginRedirect } from '../../lib/login-redirect';
import { useSession } from '../../lib/session';
import { usePageInAddress } from '../../lib/use-address-state';
import { useCancelMyOrder } from './api/cancel-my-order';
import { useMyOrders } from './api/get-my-orders';

/** Spec 2.12: pending yellow; delivered or success green; failed or cancelled red; else grey. */
export function statusColour(status: string): 'yellow' | 'green' | 'red' | 'grey' {
  const s = status.toLowerCase();
  if (s === 'pending') return 'yellow';
  if (s === 'delivered' || s === 'success') return 'green';
  if (s === 'failed' || s === 'cancelled') return 'red';
  return 'grey';
}

type Order = Schemas['ClientOrder'];

/** The confirmation step: nothing is cancelled until the client says yes here. */
function ConfirmCancel({ order, onClose, onDone }: { order: Order; onClose: () => void; onDone: (error?: unknown) => void }) {
  const cancel = useCancelMyOrder();
  const confirm = () => cancel.mutate(order.id, { onSuccess: () => onDone(), onError: (error) => onDone(error) });
  const items = order.totalQuantity === 1 ? '1 item' : `${order.totalQuantity} items`;
  return (
    <Modal title={`Cancel order ${order.id}`} onClose={onClose} busy={cancel.isPending}>
      <h2>Cancel order #{order.id}?</h2>
      <p>
        {items}, {money(order.totalPrice)}, placed {dateTime(order.createdAt)}. The books go back on sale and we send you an e-mail. This
        cannot be undone.
      </p>
      <div className="actions">
        <button type="button" onClick={onClose} disabled={cancel.isPending}>
          Keep order
        </button>
        <BusyButton className="danger" onClick={confirm} busy={cancel.isPending} busyLabel="Cancelling...">
          Yes, cancel order
        </BusyButton>
      </div>
    </Modal>
  );
}

export default function MyOrdersPage() {
  useDocumentTitle('My Orders');
  const { loggedIn, ready } = useSession();
  // In the address, as every paged list: a reload or Back returns to the page the client was on.
  const [page, setPage] = usePageInAddress();
  const orders = useMyOrders(page);
  // A page past the end (an old link, orders cancelled since) goes to the last page rather than
  // saying the client has none; Paging, not shown for an empty page, cannot take them back.
  const lastPage = orders.data?.orders.length === 0 && page > 1 ? orders.data.totalPages : null;
  useEffect(() => {
    if (lastPage !== null) setPage(Math.max(1, lastPage), { replace: true });
  }, [lastPage, setPage]);
  const [confirming, setConfirming] = useState<Order | null>(null);
  const [notice, show] = useNotice();
  if (ready && !loggedIn) return <LoginRedirect />;
  const cancelled = (order: Order) => (failure?: unknown) => {
    setConfirming(null);
    if (failure === undefined) show(`Order #${order.id} was cancelled.`);
    else show(`Order #${order.id} could not be cancelled.`, 'error', failureReason(failure));
  };
  return (
    <div>
      <h1>My Orders</h1>
      <Notice notice={notice} />
      <QueryView
        query={orders}
        what="your orders"
        empty={{ text: 'No orders found.', when: (data) => data.orders.length === 0 }}
        loadingText="Loading orders..."
      >
        {(data) => (
          <>
            <DataTable
              rows={data.orders}
              columns={[
                { label: '#', cell: (o) => o.id },
                { label: 'Date', cell: (o) => dateTime(o.createdAt) },
                { label: 'Status', cell: (o) => <span className={`status status-${statusColour(o.status)}`}>{o.status}</span> },
                { label: 'Items', cell: (o) => o.totalQuantity },
                { label: 'Total', cell: (o) => money(o.totalPrice) },
                { label: 'Shipment', cell: (o) => o.shipmentAddress },
                {
                  label: 'Actions',
                  cell: (o) =>
                    o.cancellable && (
                      <button type="button" className="danger" aria-label={`Cancel order ${o.id}`} onClick={() => setConfirming(o)}>
                        Cancel
                      </button>
                    ),
                },
              ]}
            />
            {confirming && <ConfirmCancel order={confirming} onClose={() => setConfirming(null)} onDone={cancelled(confirming)} />}
            <Paging page={page} totalPages={data.totalPages} onPage={setPage} />
          </>
        )}
      </QueryView>
    </div>
  );
}

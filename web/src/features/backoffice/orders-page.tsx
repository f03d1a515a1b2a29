import { CANCEL_REASON_MAX, CANCEL_REASON_REQUIRED, canChangeStatus } from '@bookshop/rules';
import { type FormEvent, useState } from 'react';
import type { Schemas } from '../../api/types';
import { BookCover } from '../../components/book-cover';
import { BusyButton, SubmitButton } from '../../components/busy-button';
import { Modal } from '../../components/modal';
import { Notice, type NoticeState, useNotice } from '../../components/notice';
import { Paging } from '../../components/paging';
import { QueryView } from '../../components/query-view';
import { useDocumentTitle } from '../../lib/document-title';
import { failureReason } from '../../lib/failure-reason';
import { dateTime, money } from '../../lib/format';
import { usePageInAddress } from '../../lib/use-address-state';
import { useCancelOrder } from './api/cancel-order';
import { useOrdersPage } from './api/get-orders';
import { type SettableStatus, useSetOrderStatus } from './api/set-order-status';

type Tell = ReturnType<typeof useNotice>[1];

/**
 * Staff cancel an order until it ships (beyond the spec): this asks for the reason, which the audit
 * log and the client's e-mail carry; nothing is cancelled until it is given and confirmed.
 */
function CancelOrderDialog({ order, onClose, show }: { order: Schemas['BackofficeOrder']; onClose: () => void; show: Tell }) {
  const cancel = useCancelOrder();
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) return setMissing(true);
    // By the call's promise: the cancel settles once the orders are read again, and by then this
    // dialog may be gone with its card (a newer order pushed it off the page), and with it the
    // callbacks react-query would have called; the page's notice is told either way.
    cancel
      .mutateAsync({ orderId: order.id, reason: reason.trim(), from: order.status })
      .then(
        () => show('Order cancelled; its stock is back.'),
        (error) => show('Failed to cancel the order.', 'error', failureReason(error)),
      )
      .finally(onClose);
  };
  return (
    <Modal title={`Cancel order ${order.id}`} onClose={onClose} busy={cancel.isPending}>
      <form className="form" onSubmit={submit} noValidate>
        <h2>Cancel order #{order.id}</h2>
        <p>Its stock goes back on sale, and the client gets an e-mail with your reason.</p>
        <label>
          Reason
          <textarea
            rows={3}
            maxLength={CANCEL_REASON_MAX}
            value={reason}
            aria-invalid={missing}
            aria-describedby={`cancel-reason-${order.id}`}
            onChange={(e) => {
              setReason(e.target.value);
              setMissing(false);
            }}
          />
        </label>
        <p id={`cancel-reason-${order.id}`} className={missing ? 'field-error' : 'muted'} role={missing ? 'alert' : undefined}>
          {missing ? CANCEL_REASON_REQUIRED : `Required, up to ${CANCEL_REASON_MAX} characters.`}
        </p>
        <div className="actions">
          <button type="button" onClick={onClose} disabled={cancel.isPending}>
            Keep order
          </button>
          <SubmitButton busy={cancel.isPending} busyLabel="Cancelling..." look="danger">
            Cancel order
          </SubmitButton>
        </div>
      </form>
    </Modal>
  );
}

function OrderCard({ order, notice, show }: { order: Schemas['BackofficeOrder']; notice: NoticeState | null; show: Tell }) {
  const setStatus = useSetOrderStatus();
  const [cancelling, setCancelling] = useState(false);
  // A cancelled or failed order holds no stock, and the API keeps its status: its buttons say so rather than fail.
  const statusKept = !canChangeStatus(order.status);
  const keptNote = `status-kept-${order.id}`;
  // The status shown is the server's: the change refetches the page it is on. Until the page is back,
  // the status this card just set is the one a next change starts from, not the one still shown.
  const [justSet, setJustSet] = useState<{ from: string; to: string } | null>(null);
  const from = justSet?.from === order.status ? justSet.to : order.status;
  const set = (status: SettableStatus) =>
    setStatus.mutateAsync({ orderId: order.id, status, from }).then(
      () => {
        setJustSet({ from: order.status, to: status });
        show('Status updated successfully.');
      },
      (error) => show('Failed to update status.', 'error', failureReason(error)),
    );
  return (
    <article className="order-card" aria-label={`Order ${order.id}`}>
      <header>
        <h2>Order #{order.id}</h2>
        <span className="status">{order.status}</span>
      </header>
      <dl>
        <dt>Client ID</dt>
        <dd>{order.clientId}</dd>
        <dt>Shipment address</dt>
        <dd>{order.shipmentAddress}</dd>
        <dt>Created</dt>
        <dd>{dateTime(order.createdAt)}</dd>
        <dt>Total quantity</dt>
        <dd>{order.totalQuantity}</dd>
        <dt>Total price</dt>
        <dd>{money(order.totalPrice)}</dd>
      </dl>
      <ul className="order-items">
        {order.items.map((item) => (
          <li key={item.id}>
            <BookCover src={item.imageUrl} title={item.name} className="tiny" />
            <span>{item.name}</span>
            <span>× {item.quantity}</span>
            <span>{money(item.totalPrice)}</span>
          </li>
        ))}
      </ul>
      <Notice notice={notice} />
      {statusKept && (
        <p id={keptNote} className="muted">
          This order is {order.status} and holds no stock, so its status can no longer change.
        </p>
      )}
      <div className="actions">
        <BusyButton
          onClick={() => set('Processing')}
          busy={setStatus.isPending}
          notReady={statusKept}
          aria-describedby={statusKept ? keptNote : undefined}
        >
          Mark as Processing
        </BusyButton>
        <BusyButton
          className="primary"
          onClick={() => set('Shipped')}
          busy={setStatus.isPending}
          notReady={statusKept}
          aria-describedby={statusKept ? keptNote : undefined}
        >
          Mark as Shipped
        </BusyButton>
        {order.cancellable && (
          <button type="button" className="danger" onClick={() => setCancelling(true)}>
            Cancel Order
          </button>
        )}
      </div>
      {cancelling && <CancelOrderDialog order={order} onClose={() => setCancelling(false)} show={show} />}
    </article>
  );
}

export default function OrdersPage() {
  useDocumentTitle('Orders');
  const [page, setPage] = usePageInAddress();
  const orders = useOrdersPage(page);
  // The notice of a status change lives here, not in its card: the refetch after the change can
  // move the order off this page (a newer order pushes it down), and the notice must still show.
  const [notice, show] = useNotice();
  const [toldAbout, setToldAbout] = useState(0);
  const tell =
    (orderId: number): Tell =>
    (text, kind, reason) => {
      setToldAbout(orderId);
      show(text, kind, reason);
    };
  const cardShown = orders.data?.orders.some((o) => o.id === toldAbout) ?? false;
  return (
    <section>
      <h1>Orders</h1>
      {/* Always there (its status region with it), saying what its card, gone from this page, cannot. */}
      <Notice notice={cardShown ? null : notice} />
      <QueryView query={orders} what="the orders" empty={{ text: 'No orders found.', when: (data) => !data.orders.length }}>
        {(data) => (
          <div className="order-cards">
            {data.orders.map((o) => (
              <OrderCard key={o.id} order={o} notice={toldAbout === o.id ? notice : null} show={tell(o.id)} />
            ))}
          </div>
        )}
      </QueryView>
      <Paging page={page} totalPages={orders.data?.totalPages} onPage={setPage} prevLabel="Previous" />
    </section>
  );
}

import { useState } from 'react';
import type { Schemas } from '../../api/types';
import { BookCover } from '../../components/book-cover';
import { Notice, useNotice } from '../../components/notice';
import { Paging } from '../../components/paging';
import { useDocumentTitle } from '../../lib/document-title';
import { failureReason } from '../../lib/failure-reason';
import { dateTime, money } from '../../lib/format';
import { useOrdersPage } from './api/get-orders';
import { type SettableStatus, useSetOrderStatus } from './api/set-order-status';

function OrderCard({ order }: { order: Schemas['BackofficeOrder'] }) {
  const setStatus = useSetOrderStatus();
  const [notice, show] = useNotice();
  // The status shown is the server's: the change refetches the page it is on.
  const set = (status: SettableStatus) =>
    setStatus.mutate(
      { orderId: order.id, status },
      {
        onSuccess: () => show('Status updated successfully.'),
        onError: (error) => show('Failed to update status.', 'error', failureReason(error)),
      },
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
      <div className="actions">
        <button type="button" onClick={() => set('Processing')} disabled={setStatus.isPending}>
          Mark as Processing
        </button>
        <button type="button" className="primary" onClick={() => set('Shipped')} disabled={setStatus.isPending}>
          Mark as Shipped
        </button>
      </div>
    </article>
  );
}

export default function OrdersPage() {
  useDocumentTitle('Orders');
  const [page, setPage] = useState(1);
  const { data, isPending } = useOrdersPage(page);
  return (
    <section>
      <h1>Orders</h1>
      {isPending ? (
        <p className="muted">Loading...</p>
      ) : !data?.orders.length ? (
        <p className="empty">No orders found.</p>
      ) : (
        <div className="order-cards">
          {data.orders.map((o) => (
            <OrderCard key={o.id} order={o} />
          ))}
        </div>
      )}
      <Paging page={page} totalPages={data?.totalPages ?? 1} onPage={setPage} prevLabel="Previous" />
    </section>
  );
}

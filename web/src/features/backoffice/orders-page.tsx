import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { BookCover } from '../../components/book-cover';
import { Notice, useNotice } from '../../components/notice';
import { Paging } from '../../components/paging';
import { BACKOFFICE_ORDERS_PAGE_SIZE } from '../../lib/constants';
import { useDocumentTitle } from '../../lib/document-title';
import { failureReason } from '../../lib/failure-reason';
import { dateTime, money } from '../../lib/format';
import { employeeApi } from './api';

function OrderCard({ order }: { order: Awaited<ReturnType<typeof employeeApi.orders>>['orders'][number] }) {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState(order.status);
  const [notice, show] = useNotice();
  const set = async (next: 'Processing' | 'Shipped') => {
    try {
      setStatus(await employeeApi.setOrderStatus(order.id, next));
      show('Status updated successfully.');
      void queryClient.invalidateQueries({ queryKey: ['employee', 'dashboard'] });
    } catch (error) {
      show('Failed to update status.', 'error', failureReason(error));
    }
  };
  return (
    <article className="order-card" aria-label={`Order ${order.id}`}>
      <header>
        <h2>Order #{order.id}</h2>
        <span className="status">{status}</span>
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
        <button type="button" onClick={() => set('Processing')}>
          Mark as Processing
        </button>
        <button type="button" className="primary" onClick={() => set('Shipped')}>
          Mark as Shipped
        </button>
      </div>
    </article>
  );
}

export default function OrdersPage() {
  useDocumentTitle('Orders');
  const [page, setPage] = useState(1);
  const { data, isPending } = useQuery({
    queryKey: ['employee', 'orders', page],
    queryFn: () => employeeApi.orders(page, BACKOFFICE_ORDERS_PAGE_SIZE),
    placeholderData: keepPreviousData,
  });
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
            <OrderCard key={`${o.id}-${o.status}`} order={o} />
          ))}
        </div>
      )}
      <Paging page={page} totalPages={data?.totalPages ?? 1} onPage={setPage} prevLabel="Previous" />
    </section>
  );
}

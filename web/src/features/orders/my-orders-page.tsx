import { useState } from 'react';
import { DataTable } from '../../components/data-table';
import { LoadError } from '../../components/load-error';
import { Paging } from '../../components/paging';
import { useDocumentTitle } from '../../lib/document-title';
import { dateTime, money } from '../../lib/format';
import { LoginRedirect } from '../../lib/login-redirect';
import { useSession } from '../../lib/session';
import { useMyOrders } from './api/get-my-orders';

/** Spec 2.12: pending yellow; delivered or success green; failed or cancelled red; else grey. */
export function statusColour(status: string): 'yellow' | 'green' | 'red' | 'grey' {
  const s = status.toLowerCase();
  if (s === 'pending') return 'yellow';
  if (s === 'delivered' || s === 'success') return 'green';
  if (s === 'failed' || s === 'cancelled') return 'red';
  return 'grey';
}

export default function MyOrdersPage() {
  useDocumentTitle('My Orders');
  const { loggedIn, ready } = useSession();
  const [page, setPage] = useState(1);
  const { data, isPending, isError, error, refetch } = useMyOrders(page);
  if (ready && !loggedIn) return <LoginRedirect />;
  return (
    <div>
      <h1>My Orders</h1>
      {isPending ? (
        <p className="muted">Loading orders...</p>
      ) : isError ? (
        <LoadError what="your orders" error={error} onRetry={() => void refetch()} />
      ) : data.orders.length === 0 ? (
        <p className="empty">No orders found.</p>
      ) : (
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
            ]}
          />
          <Paging page={page} totalPages={data.totalPages} onPage={setPage} />
        </>
      )}
    </div>
  );
}

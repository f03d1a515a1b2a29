import { useState } from 'react';
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
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th>#</th>
                  <th>Date</th>
                  <th>Status</th>
                  <th>Items</th>
                  <th>Total</th>
                  <th>Shipment</th>
                </tr>
              </thead>
              <tbody>
                {data.orders.map((o) => (
                  <tr key={o.id}>
                    <td>{o.id}</td>
                    <td>{dateTime(o.createdAt)}</td>
                    <td>
                      <span className={`status status-${statusColour(o.status)}`}>{o.status}</span>
                    </td>
                    <td>{o.totalQuantity}</td>
                    <td>{money(o.totalPrice)}</td>
                    <td>{o.shipmentAddress}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Paging page={page} totalPages={data.totalPages} onPage={setPage} />
        </>
      )}
    </div>
  );
}

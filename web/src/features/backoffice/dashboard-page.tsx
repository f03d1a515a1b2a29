import { lazy, Suspense } from 'react';
import { DataTable } from '../../components/data-table';
import { useDocumentTitle } from '../../lib/document-title';
import { failureReason } from '../../lib/failure-reason';
import { money } from '../../lib/format';
import { useDashboard } from './api/get-dashboard';
import { ClientsTable } from './clients-page';

/** The charts bring the charting library: loaded only here, after the spec's cards and tables. */
const SalesCharts = lazy(() => import('./sales-charts'));

export default function DashboardPage() {
  useDocumentTitle('Dashboard');
  const { data, isPending, isError, error, refetch } = useDashboard();
  if (isPending) return <p className="muted">Loading...</p>;
  if (isError || !data) {
    // The spec's text alone in the alert; the shop's reason beneath it, and a way to try again.
    const reason = failureReason(error);
    return (
      <div className="load-error">
        <p role="alert">Failed to load data.</p>
        {reason && <p className="muted">{reason}</p>}
        <button type="button" onClick={() => void refetch()}>
          Retry
        </button>
      </div>
    );
  }
  const cards = [
    ['Total Orders', data.summary.totalOrders],
    ['Total Books', data.summary.totalBooks],
    ['Book Copies', data.summary.totalBooksCopies],
    ['Total Clients', data.summary.totalClients],
  ] as const;
  return (
    <section>
      <h1>Dashboard</h1>
      <div className="cards">
        {cards.map(([label, value]) => (
          <div key={label} className="stat-card">
            <span className="muted">{label}</span>
            <strong>{value.toLocaleString('en-US')}</strong>
          </div>
        ))}
      </div>
      <h2>Recent Orders</h2>
      {data.orders.length === 0 ? (
        <p className="empty">No orders found.</p>
      ) : (
        <DataTable
          rows={data.orders}
          columns={[
            { label: 'Order ID', cell: (o) => o.id },
            { label: 'Client ID', cell: (o) => o.clientId },
            { label: 'Quantity', cell: (o) => o.totalQuantity },
            { label: 'Total Price', cell: (o) => money(o.totalPrice) },
            { label: 'Status', cell: (o) => o.status },
          ]}
        />
      )}
      <h2>New Clients</h2>
      <ClientsTable clients={data.clients} />
      <Suspense fallback={<p className="muted">Loading charts...</p>}>
        <SalesCharts />
      </Suspense>
    </section>
  );
}

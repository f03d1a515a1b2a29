import { useDocumentTitle } from '../../lib/document-title';
import { money } from '../../lib/format';
import { useDashboard } from './api/get-dashboard';
import { ClientsTable } from './clients-page';

export default function DashboardPage() {
  useDocumentTitle('Dashboard');
  const { data, isPending, isError } = useDashboard();
  if (isPending) return <p className="muted">Loading...</p>;
  if (isError || !data) return <p role="alert">Failed to load data.</p>;
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
      <div className="table-wrap">
        <table>
          <thead>
            <tr>
              <th>Order ID</th>
              <th>Client ID</th>
              <th>Quantity</th>
              <th>Total Price</th>
              <th>Status</th>
            </tr>
          </thead>
          <tbody>
            {data.orders.map((o) => (
              <tr key={o.id}>
                <td>{o.id}</td>
                <td>{o.clientId}</td>
                <td>{o.totalQuantity}</td>
                <td>{money(o.totalPrice)}</td>
                <td>{o.status}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h2>New Clients</h2>
      <ClientsTable clients={data.clients} />
    </section>
  );
}

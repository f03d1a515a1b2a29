// The back-office (spec 2.13): side menu and routes. A Seller's menu shows only Dashboard, Orders and
// Account, and the server answers 403 to anything else; the routes mirror that.
import { lazy, Suspense, useState } from 'react';
import { Navigate, NavLink, Outlet, Route, Routes, useNavigate } from 'react-router-dom';
import { useSession } from '../lib/session';

const DashboardPage = lazy(() => import('../features/backoffice/dashboard-page'));
const ClientsPage = lazy(() => import('../features/backoffice/clients-page'));
const OrdersPage = lazy(() => import('../features/backoffice/orders-page'));
const AuthorsPage = lazy(() => import('../features/backoffice/authors-page'));
const BooksPage = lazy(() => import('../features/backoffice/books-page'));
const CopiesPage = lazy(() => import('../features/backoffice/copies-page'));
const EmployeesPage = lazy(() => import('../features/backoffice/employees-page'));
const EmployeeAccountPage = lazy(() => import('../features/backoffice/account-page'));

const MENU = [
  { to: '/dashboard', label: 'Dashboard', seller: true },
  { to: '/clients', label: 'Clients', seller: false },
  { to: '/employees', label: 'Employees', seller: false },
  { to: '/authors', label: 'Authors', seller: false },
  { to: '/books', label: 'Books', seller: false },
  { to: '/bookscopies', label: 'Book Copies', seller: false },
  { to: '/orders', label: 'Orders', seller: true },
];

function BackOfficeLayout() {
  const { userType, signOut } = useSession();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const isAdmin = userType === 'Admin';
  return (
    <div className="back-office">
      <aside className={open ? 'side open' : 'side'}>
        <div className="side-head">
          <span className="brand">Bookshop back-office</span>
          <button type="button" className="menu-toggle" aria-expanded={open} aria-controls="side-menu" onClick={() => setOpen(!open)}>
            Menu
          </button>
        </div>
        <nav id="side-menu" aria-label="Back-office" onClick={() => setOpen(false)}>
          {MENU.filter((m) => isAdmin || m.seller).map((m) => (
            <NavLink key={m.to} to={m.to}>
              {m.label}
            </NavLink>
          ))}
          <hr />
          <NavLink to="/employeeaccount">Account</NavLink>
          <button
            type="button"
            onClick={async () => {
              await signOut();
              navigate('/');
            }}
          >
            Logout
          </button>
        </nav>
      </aside>
      <main id="main" className="back-office-main">
        <Suspense fallback={<p className="muted">Loading...</p>}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}

export default function BackOffice() {
  const { userType } = useSession();
  const adminOnly = (element: React.ReactNode) => (userType === 'Admin' ? element : <Navigate to="/dashboard" replace />);
  return (
    <Routes>
      <Route element={<BackOfficeLayout />}>
        <Route path="dashboard" element={<DashboardPage />} />
        <Route path="clients" element={adminOnly(<ClientsPage />)} />
        <Route path="orders" element={<OrdersPage />} />
        <Route path="authors" element={adminOnly(<AuthorsPage />)} />
        <Route path="books" element={adminOnly(<BooksPage />)} />
        <Route path="bookscopies" element={adminOnly(<CopiesPage />)} />
        <Route path="employees" element={adminOnly(<EmployeesPage />)} />
        <Route path="employeeaccount" element={<EmployeeAccountPage />} />
        <Route path="*" element={<Navigate to="/dashboard" replace />} />
      </Route>
    </Routes>
  );
}

// The back-office (spec 2.13): side menu and routes. A Seller's menu shows only Dashboard, Orders,
// Low Stock and Account, and the server answers 403 to anything else; the routes mirror that.
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useRef, useState } from 'react';
import { Navigate, NavLink, Outlet, Route, Routes, useLocation, useNavigate } from 'react-router-dom';
import { ScreenBoundary } from '../components/screen-boundary';
import { secondFactorQuery } from '../features/backoffice/api/get-second-factor';
import { useFocusOnNavigation } from '../lib/focus-on-navigation';
import { paths } from '../lib/paths';
import { useSession } from '../lib/session';

const DashboardPage = lazy(() => import('../features/backoffice/dashboard-page'));
const ClientsPage = lazy(() => import('../features/backoffice/clients-page'));
const OrdersPage = lazy(() => import('../features/backoffice/orders-page'));
const AuthorsPage = lazy(() => import('../features/backoffice/authors-page'));
const BooksPage = lazy(() => import('../features/backoffice/books-page'));
const CopiesPage = lazy(() => import('../features/backoffice/copies-page'));
const EmployeesPage = lazy(() => import('../features/backoffice/employees-page'));
const EmployeeAccountPage = lazy(() => import('../features/backoffice/account-page'));
const ReviewsPage = lazy(() => import('../features/backoffice/reviews-page'));
const LowStockPage = lazy(() => import('../features/backoffice/low-stock-page'));
const AuditLogPage = lazy(() => import('../features/backoffice/audit-log-page'));
const ImportExportPage = lazy(() => import('../features/backoffice/import-export-page'));
const MailPage = lazy(() => import('../features/backoffice/mail-page'));

const MENU = [
  { to: paths.backoffice.dashboard, label: 'Dashboard', seller: true },
  { to: paths.backoffice.clients, label: 'Clients', seller: false },
  { to: paths.backoffice.employees, label: 'Employees', seller: false },
  { to: paths.backoffice.authors, label: 'Authors', seller: false },
  { to: paths.backoffice.books, label: 'Books', seller: false },
  { to: paths.backoffice.copies, label: 'Book Copies', seller: false },
  { to: paths.backoffice.orders, label: 'Orders', seller: true },
  { to: paths.backoffice.reviews, label: 'Reviews', seller: false },
  { to: paths.backoffice.lowStock, label: 'Low Stock', seller: true },
  { to: paths.backoffice.importExport, label: 'Import & Export', seller: false },
  { to: paths.backoffice.auditLog, label: 'Audit Log', seller: false },
  { to: paths.backoffice.mail, label: 'E-mail', seller: false },
];

function BackOfficeLayout() {
  const { userType, signOut } = useSession();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const main = useRef<HTMLElement>(null);
  useFocusOnNavigation(main);
  const isAdmin = userType === 'Admin';
  // STAFF_MFA=required: an Admin without a second factor is kept on the Account screen to set one up.
  // No screen shows until that is known: the dashboard's calls were refused (403) and said it failed
  // to load, a moment before the Account screen took its place.
  const factor = useQuery(secondFactorQuery);
  const mustEnrol = factor.data?.required === true;
  const onAccount = useLocation().pathname.toLowerCase() === paths.backoffice.account;
  if (mustEnrol && !onAccount) return <Navigate to={paths.backoffice.account} replace />;
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
          <NavLink to={paths.backoffice.account}>Account</NavLink>
          <button
            type="button"
            onClick={async () => {
              await signOut();
              navigate(paths.home);
            }}
          >
            Logout
          </button>
        </nav>
      </aside>
      <main id="main" className="back-office-main" ref={main} tabIndex={-1}>
        <ScreenBoundary>
          <Suspense fallback={<p className="muted">Loading...</p>}>
            {factor.isPending ? <p className="muted">Loading...</p> : <Outlet />}
          </Suspense>
        </ScreenBoundary>
      </main>
    </div>
  );
}

export default function BackOffice() {
  const { userType } = useSession();
  const adminOnly = (element: React.ReactNode) => (userType === 'Admin' ? element : <Navigate to={paths.backoffice.dashboard} replace />);
  return (
    <Routes>
      <Route element={<BackOfficeLayout />}>
        <Route path={paths.backoffice.dashboard} element={<DashboardPage />} />
        <Route path={paths.backoffice.clients} element={adminOnly(<ClientsPage />)} />
        <Route path={paths.backoffice.orders} element={<OrdersPage />} />
        <Route path={paths.backoffice.authors} element={adminOnly(<AuthorsPage />)} />
        <Route path={paths.backoffice.books} element={adminOnly(<BooksPage />)} />
        <Route path={paths.backoffice.copies} element={adminOnly(<CopiesPage />)} />
        <Route path={paths.backoffice.employees} element={adminOnly(<EmployeesPage />)} />
        <Route path={paths.backoffice.reviews} element={adminOnly(<ReviewsPage />)} />
        <Route path={paths.backoffice.lowStock} element={<LowStockPage />} />
        <Route path={paths.backoffice.importExport} element={adminOnly(<ImportExportPage />)} />
        <Route path={paths.backoffice.auditLog} element={adminOnly(<AuditLogPage />)} />
        <Route path={paths.backoffice.mail} element={adminOnly(<MailPage />)} />
        <Route path={paths.backoffice.account} element={<EmployeeAccountPage />} />
        <Route path="*" element={<Navigate to={paths.backoffice.dashboard} replace />} />
      </Route>
    </Routes>
  );
}

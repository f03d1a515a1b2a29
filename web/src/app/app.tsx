// Spec section 1: the storefront when the stored user type is Client, the back-office otherwise.
import { lazy, Suspense } from 'react';
import { ScreenBoundary } from '../components/screen-boundary';
import { useSession } from '../lib/session';
import Storefront from './storefront';

// The back-office is a separate chunk: a shopper's first load never downloads it.
const BackOffice = lazy(() => import('./back-office'));

export function App() {
  const { userType } = useSession();
  if (userType === 'Client') return <Storefront />;
  return (
    <ScreenBoundary>
      <Suspense fallback={<p className="muted">Loading...</p>}>
        <BackOffice />
      </Suspense>
    </ScreenBoundary>
  );
}

// The client storefront's routes (spec 2.1). Every screen but Home is its own chunk.
import { lazy, Suspense, useRef } from 'react';
import { Navigate, Outlet, Route, Routes } from 'react-router-dom';
import { ScreenBoundary } from '../components/screen-boundary';
import HomePage from '../features/catalog/routes/home';
import { useFocusOnNavigation } from '../lib/focus-on-navigation';
import { paths } from '../lib/paths';
import { Footer } from './layout/footer';
import { TopBar } from './layout/top-bar';

const AboutPage = lazy(() => import('../features/contact/about-page'));
const ContactPage = lazy(() => import('../features/contact/contact-page'));
const LoginPage = lazy(() => import('../features/auth/login-page'));
const SecondFactorPage = lazy(() => import('../features/auth/second-factor-page'));
const SignUpPage = lazy(() => import('../features/auth/signup-page'));
const ForgotPasswordPage = lazy(() => import('../features/auth/forgot-password-page'));
// The identity provider's e-mails lead here: a sign-up's verification and a password reset.
const ProviderActionPage = lazy(() => import('../features/auth/reset-password-page'));
const CartPage = lazy(() => import('../features/cart/cart-page'));
const DetailPage = lazy(() => import('../features/catalog/routes/detail'));
const BookPage = lazy(() => import('../features/catalog/routes/book-page'));
const AuthorPage = lazy(() => import('../features/catalog/routes/author-page'));
const WishlistPage = lazy(() => import('../features/wishlist/wishlist-page'));
const MyOrdersPage = lazy(() => import('../features/orders/my-orders-page'));
const AccountPage = lazy(() => import('../features/account/account-page'));
const UnsubscribePage = lazy(() => import('../features/account/unsubscribe-page'));
const SearchResultsPage = lazy(() => import('../features/catalog/routes/search-results'));
const CategoryRoute = lazy(() => import('../features/catalog/routes/category'));

function StorefrontLayout() {
  const main = useRef<HTMLElement>(null);
  useFocusOnNavigation(main);
  return (
    <div className="storefront">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <TopBar />
      <main id="main" ref={main} tabIndex={-1}>
        <ScreenBoundary>
          <Suspense fallback={<p className="muted">Loading...</p>}>
            <Outlet />
          </Suspense>
        </ScreenBoundary>
      </main>
      <Footer />
    </div>
  );
}

export default function Storefront() {
  return (
    <Routes>
      <Route element={<StorefrontLayout />}>
        <Route index element={<HomePage />} />
        <Route path={paths.about} element={<AboutPage />} />
        <Route path={paths.contact} element={<ContactPage />} />
        <Route path={paths.login} element={<LoginPage />} />
        <Route path={paths.secondFactor} element={<SecondFactorPage />} />
        <Route path={paths.signup} element={<SignUpPage />} />
        <Route path={paths.forgotPassword} element={<ForgotPasswordPage />} />
        <Route path={paths.resetPassword} element={<ProviderActionPage />} />
        <Route path={paths.unsubscribe} element={<UnsubscribePage />} />
        <Route path={paths.cart} element={<CartPage />} />
        <Route path={paths.detail} element={<DetailPage />} />
        <Route path={paths.bookRoute} element={<BookPage />} />
        <Route path={paths.authorRoute} element={<AuthorPage />} />
        <Route path={paths.wishlist} element={<WishlistPage />} />
        <Route path={paths.orders} element={<MyOrdersPage />} />
        <Route path={paths.account} element={<AccountPage />} />
        <Route path={paths.searchResult} element={<SearchResultsPage />} />
        <Route path=":category" element={<CategoryRoute />} />
        <Route path="*" element={<Navigate to={paths.home} replace />} />
      </Route>
    </Routes>
  );
}

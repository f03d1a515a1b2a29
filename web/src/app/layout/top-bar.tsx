import { type RefObject, useEffect, useRef } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useClientInfo } from '../../features/account/api/get-client-info';
import { useCart } from '../../features/cart/api/get-cart';
import { useBookTypes } from '../../features/catalog/api/get-types';
import { SearchCombobox } from '../../features/catalog/browse/search-combobox';
import { NoticeBell } from '../../features/wishlist/components/notice-bell';
import { paths } from '../../lib/paths';
import { useSession } from '../../lib/session';

const BookIcon = () => (
  <svg className="icon" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2">
    <path d="M4 19.5A2.5 2.5 0 0 1 6.5 17H20V3H6.5A2.5 2.5 0 0 0 4 5.5v14zM4 19.5A2.5 2.5 0 0 0 6.5 22H20v-5" />
  </svg>
);
const CartIcon = () => (
  <svg className="icon" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2">
    <circle cx="9" cy="20" r="1.5" />
    <circle cx="18" cy="20" r="1.5" />
    <path d="M2 3h3l2.7 12.4a1 1 0 0 0 1 .8h9.6a1 1 0 0 0 1-.8L21 7H6" />
  </svg>
);

/** A <details> menu closes once one of its items is chosen. */
const closeMenu = (e: { currentTarget: HTMLElement }) => e.currentTarget.closest('details')?.removeAttribute('open');

/**
 * The top bar's <details> menus behave as menus: one open at a time, closed by Escape (focus back
 * on its button) or by a press anywhere outside it.
 */
function useMenuBehaviour(bar: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const root = bar.current;
    if (!root) return;
    const openMenus = () => [...root.querySelectorAll<HTMLDetailsElement>('details[open]')];
    const onToggle = (event: Event) => {
      const menu = event.target as HTMLDetailsElement;
      if (!menu.open) return;
      for (const other of openMenus()) if (other !== menu) other.open = false;
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      for (const menu of openMenus()) {
        menu.open = false;
        menu.querySelector('summary')?.focus();
      }
    };
    const onPointerDown = (event: PointerEvent) => {
      for (const menu of openMenus()) if (!menu.contains(event.target as Node)) menu.open = false;
    };
    // 'toggle' does not bubble: listened to while it goes down to the menu.
    root.addEventListener('toggle', onToggle, true);
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('pointerdown', onPointerDown);
    return () => {
      root.removeEventListener('toggle', onToggle, true);
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('pointerdown', onPointerDown);
    };
  }, [bar]);
}

function CategoriesMenu() {
  const { data: types } = useBookTypes();
  return (
    <details className="menu">
      <summary>Categories</summary>
      <ul onClick={closeMenu}>
        {(types ?? []).map((t) => (
          <li key={t.id}>
            <Link to={paths.category(t.name)}>{t.name}</Link>
          </li>
        ))}
      </ul>
    </details>
  );
}

/** The search box: a combobox with suggestions as one types (features/catalog/browse). */
const SearchBox = SearchCombobox;

function AccountMenu() {
  const { loggedIn, signOut } = useSession();
  const { data: info } = useClientInfo();
  const navigate = useNavigate();
  if (!loggedIn) {
    return (
      <details className="menu account-menu">
        <summary>Sign In</summary>
        <ul onClick={closeMenu}>
          <li>
            <Link to={paths.login}>Go to Login</Link>
          </li>
        </ul>
      </details>
    );
  }
  return (
    <details className="menu account-menu">
      <summary>{info?.firstName ?? 'Account'}</summary>
      <ul onClick={closeMenu}>
        <li>
          <Link to={paths.account}>Account</Link>
        </li>
        <li>
          <Link to={paths.orders}>Orders</Link>
        </li>
        <li>
          <Link to={paths.wishlist}>Wishlist</Link>
        </li>
        <li>
          <button
            type="button"
            onClick={async () => {
              await signOut();
              navigate(paths.home);
            }}
          >
            Sign Out
          </button>
        </li>
      </ul>
    </details>
  );
}

export function TopBar() {
  const { quantity } = useCart();
  const bar = useRef<HTMLElement>(null);
  useMenuBehaviour(bar);
  return (
    <header className="top-bar" ref={bar}>
      <Link to={paths.home} className="brand">
        <BookIcon /> Bookshop
      </Link>
      <CategoriesMenu />
      <SearchBox />
      <NoticeBell />
      <AccountMenu />
      <Link
        to={paths.cart}
        className="cart-link"
        aria-label={quantity > 0 ? `Cart, ${quantity} ${quantity === 1 ? 'item' : 'items'}` : 'Cart'}
      >
        <CartIcon /> Cart
        {quantity > 0 && <span className="badge">{quantity}</span>}
      </Link>
    </header>
  );
}

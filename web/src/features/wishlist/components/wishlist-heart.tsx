import { useSendToLogin } from '../../../lib/login-redirect';
import { useSession } from '../../../lib/session';
import { useWishlist } from '../api/get-wishlist';
import { useToggleWish } from '../api/toggle-wish';

/**
 * The heart on a card: pressed when the copy is on the client's wishlist. A visitor is sent to
 * /login first, as Add to Cart does.
 */
export function WishlistHeart({ bookCopyId, name }: { bookCopyId: number; name: string }) {
  const { loggedIn } = useSession();
  const sendToLogin = useSendToLogin();
  const { data: wishlist } = useWishlist();
  const toggle = useToggleWish();
  const wished = wishlist?.some((w) => w.id === bookCopyId) ?? false;
  return (
    <button
      type="button"
      className={wished ? 'heart wished' : 'heart'}
      aria-pressed={wished}
      aria-label={`Wishlist: ${name}`}
      title={wished ? 'On your wishlist' : 'Add to your wishlist'}
      disabled={toggle.isPending}
      onClick={() => (loggedIn ? toggle.mutate({ copyId: bookCopyId, wished: !wished }) : sendToLogin())}
    >
      <span aria-hidden="true">{wished ? '♥' : '♡'}</span>
    </button>
  );
}

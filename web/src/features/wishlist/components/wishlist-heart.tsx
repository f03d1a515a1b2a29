import { BusyButton } from '../../../components/busy-button';
import { Notice, useNotice } from '../../../components/notice';
import { failureReason } from '../../../lib/failure-reason';
import { useSendToLogin } from '../../../lib/login-redirect';
import { useSession } from '../../../lib/session';
import { useWishlist } from '../api/get-wishlist';
import { useToggleWish } from '../api/toggle-wish';

/**
 * The heart on a card: pressed when the copy is on the client's wishlist. A visitor is sent to
 * /login first, as Add to Cart does. A refusal (a full wishlist, a book gone, no network) is said
 * over the card, or the heart would just stay as it was.
 */
export function WishlistHeart({
  bookCopyId,
  name,
  onUnwished,
}: {
  bookCopyId: number;
  name: string;
  /** Called once the copy is off the wishlist (the wishlist's own page then loses the row this heart is on). */
  onUnwished?: () => void;
}) {
  const { loggedIn, ready } = useSession();
  const sendToLogin = useSendToLogin();
  const { data: wishlist } = useWishlist();
  const toggle = useToggleWish();
  const [notice, show] = useNotice();
  const wished = wishlist?.some((w) => w.id === bookCopyId) ?? false;
  const onClick = () => {
    if (!loggedIn) return sendToLogin();
    // By its promise, not mutate's callbacks: on the Wishlist screen this heart's row is gone (and the
    // heart unmounted, whose callbacks react-query then drops) by the time the list is read again.
    toggle.mutateAsync({ copyId: bookCopyId, wished: !wished }).then(
      () => {
        if (wished) onUnwished?.();
      },
      (error) =>
        show(wished ? 'Could not take it off your wishlist.' : 'Could not add it to your wishlist.', 'error', failureReason(error)),
    );
  };
  return (
    <>
      <BusyButton
        className={wished ? 'heart wished' : 'heart'}
        aria-pressed={wished}
        aria-label={`Wishlist: ${name}`}
        title={wished ? 'On your wishlist' : 'Add to your wishlist'}
        busy={toggle.isPending}
        // Until the session is known, as Add to Cart: a signed-in client would be sent to /login.
        notReady={!ready}
        onClick={onClick}
      >
        <span aria-hidden="true">{wished ? '♥' : '♡'}</span>
      </BusyButton>
      {notice && (
        <div className="heart-notice">
          <Notice notice={notice} />
        </div>
      )}
    </>
  );
}

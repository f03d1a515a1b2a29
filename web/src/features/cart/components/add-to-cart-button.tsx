import { FORM_MESSAGES } from '@bookshop/rules';
import { BusyButton } from '../../../components/busy-button';
import { Notice, useNotice } from '../../../components/notice';
import { failureReason } from '../../../lib/failure-reason';
import { useSendToLogin } from '../../../lib/login-redirect';
import { useSession } from '../../../lib/session';
import { addToCartMessage, useAddToCart } from '../api/add-to-cart';
import { useCart } from '../api/get-cart';

/**
 * Add to Cart with the rules of spec 2.3 and 5: disabled at stock 0; a signed-out visitor goes to
 * /Login; a cart already holding the whole stock gives 'product is out of stock.' It waits for the
 * start-up session refresh, so a signed-in client is never taken for a visitor, and is busy while
 * its call runs (focus kept, for a keyboard shopper who adds two).
 */
export function AddToCartButton({ bookCopyId, stock }: { bookCopyId: number; stock: number }) {
  const { loggedIn, ready } = useSession();
  const sendToLogin = useSendToLogin();
  const add = useAddToCart();
  const { items } = useCart();
  const [notice, show] = useNotice();

  const onClick = () => {
    if (!loggedIn) {
      sendToLogin();
      return;
    }
    const inCart = items.find((i) => i.productId === bookCopyId)?.totalQuantity ?? 0;
    if (inCart >= stock) {
      show(FORM_MESSAGES.outOfStock, 'error');
      return;
    }
    add.mutate(bookCopyId, {
      onSuccess: () => show('Added to cart successfully!'),
      // Spec 8's words; under its generic failure, the server's reason (a full cart, say).
      onError: (error) => show(addToCartMessage(error), 'error', failureReason(error)),
    });
  };

  return (
    <div className="add-to-cart">
      <BusyButton className="primary" onClick={onClick} busy={add.isPending} notReady={stock <= 0 || !ready}>
        Add to Cart
      </BusyButton>
      <Notice notice={notice} />
    </div>
  );
}

import { FORM_MESSAGES, SHIPPING_ADDRESS_MAX, shippingAddressProblem } from '@bookshop/rules';
import { fromCents, orderTotalCents } from '@bookshop/rules/money';
import { useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { ApiError } from '../../api/client';
import { BookCover } from '../../components/book-cover';
import { BusyButton, SubmitButton } from '../../components/busy-button';
import { LoadError } from '../../components/load-error';
import { Modal } from '../../components/modal';
import { Notice, useNotice } from '../../components/notice';
import { useDescribedFields } from '../../lib/described-fields';
import { useDocumentTitle } from '../../lib/document-title';
import { money } from '../../lib/format';
import { LoginRedirect, useSendToLogin } from '../../lib/login-redirect';
import { formRuleResolver } from '../../lib/rule-resolver';
import { useSession } from '../../lib/session';
import { storage } from '../../lib/storage';
import { useRunOncePer } from '../../lib/use-submit-once';
import { type CartLine, useCart } from './api/get-cart';
import { usePlaceOrder } from './api/place-order';
import { useRemoveCartLine } from './api/remove-cart-line';
import { useLinesBeingUpdated, useUpdateCartLine } from './api/update-cart-line';

/** The order total by the API's rule (spec 9): unit price times quantity, summed in cents. */
export const cartTotal = (items: Pick<CartLine, 'totalPrice' | 'totalQuantity'>[]) =>
  fromCents(orderTotalCents(items.map((i) => ({ price: i.totalPrice, quantity: i.totalQuantity }))));

type ShippingForm = { address: string };
/** The shipping address rule the API applies to a checkout. */
const shippingResolver = formRuleResolver<ShippingForm>(({ address }) => {
  const problem = shippingAddressProblem(address);
  return problem === null ? { problem } : { problem, fields: ['address'] };
});

function CheckoutModal({
  items,
  onClose,
  onDone,
}: {
  items: CartLine[];
  onClose: () => void;
  onDone: (message: string, ok: boolean) => void;
}) {
  const form = useForm<ShippingForm>({
    defaultValues: { address: storage.getShippingAddress() },
    resolver: shippingResolver,
  });
  // Spec 4: messages disappear after 3 s.
  const [validation, showValidation] = useNotice();
  const { field, errorTexts } = useDescribedFields(form);
  const place = usePlaceOrder();
  // One key per checkout attempt: a retried request returns the first order instead of a second.
  const idempotencyKey = useRef(crypto.randomUUID());

  const confirm = form.handleSubmit(
    ({ address }) => {
      storage.setShippingAddress(address.trim());
      place.mutate(
        {
          idempotencyKey: idempotencyKey.current,
          body: {
            shipmentAddress: address.trim(),
            totalPrice: cartTotal(items),
            totalQuantity: items.reduce((n, i) => n + i.totalQuantity, 0),
            cartItemsIds: items.map((i) => i.id),
          },
        },
        {
          onSuccess: () => onDone('Order placed successfully!', true),
          onError: (err) => onDone(err instanceof ApiError && err.status !== 401 ? err.message : 'Failed to place order.', false),
        },
      );
    },
    (errors) => showValidation(errors.root?.message ?? FORM_MESSAGES.shippingAddress, 'error'),
  );

  return (
    <Modal title="Shipping address" onClose={onClose} busy={place.isPending}>
      <form className="form" onSubmit={confirm}>
        <h2>Shipping address</h2>
        <label>
          Address
          <textarea rows={3} {...field('address')} autoComplete="street-address" maxLength={SHIPPING_ADDRESS_MAX} />
        </label>
        <Notice notice={validation} />
        {errorTexts}
        <p>
          Total: <strong>{money(cartTotal(items))}</strong>
        </p>
        <div className="actions">
          <button type="button" onClick={onClose} disabled={place.isPending}>
            Cancel
          </button>
          <SubmitButton busy={place.isPending}>Confirm Order</SubmitButton>
        </div>
      </form>
    </Modal>
  );
}

/** What the stock now says about a line: withdrawn from sale, sold out, or fewer left than chosen. */
function StockNote({ item }: { item: CartLine }) {
  const note = !item.isAvailable
    ? 'No longer available: remove it to check out the rest.'
    : item.bookCopyQuantity === 0
      ? 'Out of stock.'
      : item.totalQuantity > item.bookCopyQuantity
        ? `Only ${item.bookCopyQuantity} left: lower the quantity to check out.`
        : null;
  return note ? <span className="stock-note">{note}</span> : null;
}

/** /cart (spec 2.10). */
export default function CartPage() {
  useDocumentTitle('Cart');
  const { loggedIn, ready } = useSession();
  const { items, isPending, isError, error, refetch } = useCart();
  const update = useUpdateCartLine();
  const linesBeingUpdated = useLinesBeingUpdated();
  const remove = useRemoveCartLine();
  // A line stays on screen until the cart is fetched again: a second click meanwhile would remove
  // it twice and show the second's "not in your cart" for a removal that worked.
  const removing = useRunOncePer<number>();
  const sendToLogin = useSendToLogin();
  const [checkingOut, setCheckingOut] = useState(false);
  const [notice, show] = useNotice();
  // A removed line takes its focused Remove with it: the focus goes to the cart's heading, and the
  // removal is said (a screen reader would otherwise hear nothing of it).
  const heading = useRef<HTMLHeadingElement>(null);

  if (ready && !loggedIn) return <LoginRedirect />;
  // Until the start-up refresh answers, an empty cart would only be a guess.
  if (!ready || (loggedIn && isPending)) return <p className="muted">Loading...</p>;
  if (isError) return <LoadError what="your cart" error={error} onRetry={() => void refetch()} />;
  // A copy withdrawn from sale stays listed, so the shopper sees what happened, but is never ordered.
  const orderable = items.filter((item) => item.isAvailable);

  const failed = (err: unknown) => {
    if (err instanceof ApiError && err.status === 401) sendToLogin();
    else show(err instanceof ApiError ? err.message : 'Failed to update the cart.', 'error');
  };
  // By the call's own promise: a mutation's `mutate` callbacks are the latest call's only, so a refusal
  // of one line's change would go unshown once another line had changed meanwhile.
  const changeLine = (cartItemId: number, quantity: number) => update.mutateAsync({ cartItemId, quantity }).catch(failed);
  const removeLine = (item: CartLine) =>
    removing.run(item.id, () =>
      remove.mutateAsync(item.id).then(() => {
        heading.current?.focus();
        show(`${item.name} was removed from your cart.`);
      }, failed),
    );

  return (
    <div className="cart">
      <h1 ref={heading} tabIndex={-1}>
        Cart
      </h1>
      <Notice notice={notice} />
      {items.length === 0 ? (
        <p className="empty">Your cart is empty.</p>
      ) : (
        <>
          <ul className="cart-lines">
            {items.map((item) => {
              const lineBusy = linesBeingUpdated.includes(item.id);
              return (
                <li key={item.id} className={item.isAvailable ? 'cart-line' : 'cart-line unavailable'}>
                  <BookCover src={item.imageUrl} title={item.name} className="small" />
                  <div className="cart-line-name">
                    <strong>{item.name}</strong>
                    <span className="muted">{money(item.totalPrice)} each</span>
                    <StockNote item={item} />
                  </div>
                  {/* Busy while its change is out: each click sends the quantity on screen plus or minus one. At 1 or
                    at the stock a button refuses presses but keeps the focus the press that took it there left on it. */}
                  <fieldset className="stepper" aria-label={`Quantity of ${item.name}`} disabled={!item.isAvailable}>
                    <BusyButton
                      aria-label="Decrease quantity"
                      busy={lineBusy}
                      atLimit={item.totalQuantity <= 1}
                      onClick={() => changeLine(item.id, item.totalQuantity - 1)}
                    >
                      −
                    </BusyButton>
                    <output aria-label="Quantity" aria-live="polite">
                      {item.totalQuantity}
                    </output>
                    <BusyButton
                      aria-label="Increase quantity"
                      busy={lineBusy}
                      atLimit={item.totalQuantity >= item.bookCopyQuantity}
                      onClick={() => changeLine(item.id, item.totalQuantity + 1)}
                    >
                      +
                    </BusyButton>
                  </fieldset>
                  <span className="line-total">{item.isAvailable ? money(cartTotal([item])) : 'Not included'}</span>
                  <BusyButton
                    className="link"
                    aria-label={`Remove ${item.name}`}
                    busy={removing.busy(item.id)}
                    onClick={() => removeLine(item)}
                  >
                    Remove
                  </BusyButton>
                </li>
              );
            })}
          </ul>
          <p className="cart-total">
            Total: <strong>{money(cartTotal(orderable))}</strong>
          </p>
          <button type="button" className="primary" disabled={orderable.length === 0} onClick={() => setCheckingOut(true)}>
            Proceed to Checkout
          </button>
        </>
      )}
      {checkingOut && (
        <CheckoutModal
          items={orderable}
          onClose={() => setCheckingOut(false)}
          onDone={(message, ok) => {
            setCheckingOut(false);
            show(message, ok ? 'success' : 'error');
          }}
        />
      )}
    </div>
  );
}

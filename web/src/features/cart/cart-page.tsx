import { type FormEvent, useRef, useState } from 'react';
import { Navigate, useNavigate } from 'react-router-dom';
import { ApiError } from '../../api/client';
import { BookCover } from '../../components/book-cover';
import { Modal } from '../../components/modal';
import { Notice, useNotice } from '../../components/notice';
import { SHIPPING_ADDRESS_MIN } from '../../lib/constants';
import { money } from '../../lib/format';
import { storage } from '../../lib/storage';
import { useSession } from '../auth/session';
import { type CartLine, useCart, usePlaceOrder, useRemoveCartLine, useUpdateCartLine } from './api';

/** The order total: unit price times quantity, summed in cents, 2 decimals (spec 9). */
export const cartTotal = (items: Pick<CartLine, 'totalPrice' | 'totalQuantity'>[]) =>
  items.reduce((cents, i) => cents + Math.round(i.totalPrice * 100) * i.totalQuantity, 0) / 100;

function CheckoutModal({
  items,
  onClose,
  onDone,
}: {
  items: CartLine[];
  onClose: () => void;
  onDone: (message: string, ok: boolean) => void;
}) {
  const [address, setAddress] = useState(storage.getShippingAddress);
  const [error, setError] = useState('');
  const place = usePlaceOrder();
  // One key per checkout attempt: a retried request returns the first order instead of a second.
  const idempotencyKey = useRef(crypto.randomUUID());

  const confirm = (e: FormEvent) => {
    e.preventDefault();
    if (address.trim().length < SHIPPING_ADDRESS_MIN) return setError('Please enter a valid shipping address.');
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
  };

  return (
    <Modal title="Shipping address" onClose={onClose}>
      <form className="form" onSubmit={confirm}>
        <h2>Shipping address</h2>
        <label>
          Address
          <textarea
            rows={3}
            value={address}
            onChange={(e) => {
              setAddress(e.target.value);
              setError('');
            }}
            autoComplete="street-address"
          />
        </label>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <p>
          Total: <strong>{money(cartTotal(items))}</strong>
        </p>
        <div className="actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={place.isPending}>
            Confirm Order
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** /cart (spec 2.10). */
export default function CartPage() {
  const { loggedIn, ready } = useSession();
  const { items, isPending } = useCart();
  const update = useUpdateCartLine();
  const remove = useRemoveCartLine();
  const navigate = useNavigate();
  const [checkingOut, setCheckingOut] = useState(false);
  const [notice, show] = useNotice();

  if (ready && !loggedIn) return <Navigate to="/login" replace />;
  // Until the start-up refresh answers, an empty cart would only be a guess.
  if (!ready || (loggedIn && isPending)) return <p className="muted">Loading...</p>;

  const failed = (err: unknown) => {
    if (err instanceof ApiError && err.status === 401) navigate('/Login');
    else show(err instanceof ApiError ? err.message : 'Failed to update the cart.', 'error');
  };

  return (
    <div className="cart">
      <h1>Cart</h1>
      <Notice notice={notice} />
      {items.length === 0 ? (
        <p className="empty">Your cart is empty.</p>
      ) : (
        <>
          <ul className="cart-lines">
            {items.map((item) => (
              <li key={item.id} className="cart-line">
                <BookCover src={item.imageUrl} title={item.name} className="small" />
                <div className="cart-line-name">
                  <strong>{item.name}</strong>
                  <span className="muted">{money(item.totalPrice)} each</span>
                </div>
                <fieldset className="stepper" aria-label={`Quantity of ${item.name}`}>
                  <button
                    type="button"
                    aria-label="Decrease quantity"
                    disabled={item.totalQuantity <= 1}
                    onClick={() => update.mutate({ cartItemId: item.id, quantity: item.totalQuantity - 1 }, { onError: failed })}
                  >
                    −
                  </button>
                  <span aria-live="polite">{item.totalQuantity}</span>
                  <button
                    type="button"
                    aria-label="Increase quantity"
                    disabled={item.totalQuantity >= item.bookCopyQuantity}
                    onClick={() => update.mutate({ cartItemId: item.id, quantity: item.totalQuantity + 1 }, { onError: failed })}
                  >
                    +
                  </button>
                </fieldset>
                <span className="line-total">{money(cartTotal([item]))}</span>
                <button type="button" className="link" onClick={() => remove.mutate(item.id, { onError: failed })}>
                  Remove
                </button>
              </li>
            ))}
          </ul>
          <p className="cart-total">
            Total: <strong>{money(cartTotal(items))}</strong>
          </p>
          <button type="button" className="primary" onClick={() => setCheckingOut(true)}>
            Proceed to Checkout
          </button>
        </>
      )}
      {checkingOut && (
        <CheckoutModal
          items={items}
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

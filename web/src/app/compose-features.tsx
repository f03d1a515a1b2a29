// Where features meet: the app, and only the app, hands one feature's parts to another.
import type { ReactNode } from 'react';
import { AddToCartButton } from '../features/cart/components/add-to-cart-button';
import { BuyActionContext } from '../features/catalog/components/buy-action';

/** The catalog's books are bought with the cart's Add to Cart button. */
export function ComposeFeatures({ children }: { children: ReactNode }) {
  return <BuyActionContext.Provider value={AddToCartButton}>{children}</BuyActionContext.Provider>;
}

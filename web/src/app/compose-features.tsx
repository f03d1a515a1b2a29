// Where features meet: the app, and only the app, hands one feature's parts to another.
import type { ReactNode } from 'react';
import { AddToCartButton } from '../features/cart/components/add-to-cart-button';
import { BuyActionContext } from '../features/catalog/components/buy-action';
import { WishActionContext } from '../features/catalog/components/wish-action';
import { WishlistHeart } from '../features/wishlist/components/wishlist-heart';

/** The catalog's books are bought with the cart's Add to Cart button, and wished for with the wishlist's heart. */
export function ComposeFeatures({ children }: { children: ReactNode }) {
  return (
    <BuyActionContext.Provider value={AddToCartButton}>
      <WishActionContext.Provider value={WishlistHeart}>{children}</WishActionContext.Provider>
    </BuyActionContext.Provider>
  );
}

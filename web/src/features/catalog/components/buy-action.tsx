// The catalog shows books; buying one is the cart's business. The catalog renders the buy action the
// app gives it through this context, so neither feature imports the other: the app composes them
// (app/compose-features.tsx).
import { type ComponentType, createContext, useContext } from 'react';

export interface BuyActionProps {
  bookCopyId: number;
  stock: number;
}

export const BuyActionContext = createContext<ComponentType<BuyActionProps> | null>(null);

/** The app's buy action for this copy (Add to Cart in the storefront), or nothing without one. */
export function BuyAction(props: BuyActionProps) {
  const Action = useContext(BuyActionContext);
  return Action ? <Action {...props} /> : null;
}

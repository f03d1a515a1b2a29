// A card's heart (beyond the spec) belongs to the wishlist; the catalog renders the one the app
// gives it through this context, as it does the buy action, so neither feature imports the other.
import { type ComponentType, createContext, useContext } from 'react';

export interface WishActionProps {
  bookCopyId: number;
  name: string;
}

export const WishActionContext = createContext<ComponentType<WishActionProps> | null>(null);

/** The app's wish action for this copy (the wishlist's heart), or nothing without one. */
export function WishAction(props: WishActionProps) {
  const Action = useContext(WishActionContext);
  return Action ? <Action {...props} /> : null;
}

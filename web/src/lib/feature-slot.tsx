// A place one feature leaves for another's component, filled by the app (app/compose-features.tsx),
// so that neither feature imports the other: the catalog's cards show the cart's buy action and the
// wishlist's heart without knowing either.
import { type ComponentType, type Context, createContext, useContext } from 'react';

export type FeatureSlot<Props> = Context<ComponentType<Props> | null>;

export const featureSlot = <Props,>(): FeatureSlot<Props> => createContext<ComponentType<Props> | null>(null);

/** The component the app put in `slot`, given `props`; nothing when the app put none. */
export function FilledSlot<Props extends object>({ slot, props }: { slot: FeatureSlot<Props>; props: Props }) {
  const Component = useContext(slot);
  return Component ? <Component {...props} /> : null;
}

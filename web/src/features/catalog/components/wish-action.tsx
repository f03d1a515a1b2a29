// A card's heart (beyond the spec) belongs to the wishlist; the catalog renders the one the app
// gives it through this slot, as it does the buy action.
import { FilledSlot, featureSlot } from '../../../lib/feature-slot';

export interface WishActionProps {
  bookCopyId: number;
  name: string;
}

export const WishActionContext = featureSlot<WishActionProps>();

export const WishAction = (props: WishActionProps) => <FilledSlot slot={WishActionContext} props={props} />;

// The catalog shows books; buying one is the cart's business. The catalog renders the buy action the
// app gives it (Add to Cart in the storefront) through this slot.
import { FilledSlot, featureSlot } from '../../../lib/feature-slot';

export interface BuyActionProps {
  bookCopyId: number;
  stock: number;
}

export const BuyActionContext = featureSlot<BuyActionProps>();

export const BuyAction = (props: BuyActionProps) => <FilledSlot slot={BuyActionContext} props={props} />;

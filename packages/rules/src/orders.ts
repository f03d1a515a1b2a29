// Cancelling an order (beyond the spec): only until it ships. The API refuses any other order, and
// tells the screens which orders can still be (an order's `cancellable`), so they offer Cancel only
// there; staff give a reason the client reads.

export const CANCELLABLE_STATUSES: readonly string[] = ['pending', 'Processing'];
/** Statuses of an order that has left the shop: once it had one, it is never cancellable, whatever staff set after. */
export const SHIPPED_STATUSES: readonly string[] = ['Shipped', 'delivered', 'success'];
export const isCancellable = (status: string) => CANCELLABLE_STATUSES.includes(status);
/** An order that can still be cancelled: its status allows it and it never shipped (one set back to Processing after it did cannot). */
export const canStillBeCancelled = (order: { status: string; shippedAt: Date | string | null }) =>
  isCancellable(order.status) && order.shippedAt === null;

export const CANCEL_REASON_MAX = 500;
export const CANCEL_REASON_REQUIRED = 'Please give the reason for cancelling this order.';

// Cancelling an order (beyond the spec): only until it ships. The API refuses any other order, and
// tells the screens which orders can still be (an order's `cancellable`), so they offer Cancel only
// there; staff give a reason the client reads.

export const CANCELLABLE_STATUSES: readonly string[] = ['pending', 'Processing'];
/** Statuses of an order that has left the shop: once it had one, it is never cancellable, whatever staff set after. */
export const SHIPPED_STATUSES: readonly string[] = ['Shipped', 'delivered', 'success'];
export const isCancellable = (status: string) => CANCELLABLE_STATUSES.includes(status);
/**
 * Statuses of an order that holds no stock: a cancelled one gave its stock back, a failed one never
 * took any. Their status never changes again (the spec's buttons included): made Processing or
 * Shipped, such an order would count as sold, and could be cancelled for stock it never took.
 */
export const STOCKLESS_STATUSES: readonly string[] = ['cancelled', 'failed'];
export const canChangeStatus = (status: string) => !STOCKLESS_STATUSES.includes(status);
/** An order that can still be cancelled: its status allows it and it never shipped (one set back to Processing after it did cannot). */
export const canStillBeCancelled = (order: { status: string; shippedAt: Date | string | null }) =>
  isCancellable(order.status) && order.shippedAt === null;

/** The most different books one order (and so one cart) takes. */
export const ORDER_LINES_MAX = 200;

export const CANCEL_REASON_MAX = 500;
export const CANCEL_REASON_REQUIRED = 'Please give the reason for cancelling this order.';

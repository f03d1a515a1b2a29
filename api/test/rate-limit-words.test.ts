// A 429 says how long to wait as a person reads it: an hour's or a day's window in seconds is a number
// nobody can use.
import { expect, it } from 'vitest';
import { waitInWords } from '../src/lib/dates.ts';

it('says seconds up to a minute and a half, minutes up to an hour and a half, hours beyond, rounded up', () => {
  expect([1, 1000, 42_000, 90_000, 91_000, 3_540_000, 5_400_000, 5_401_000, 86_400_000].map(waitInWords)).toEqual([
    '1 second',
    '1 second',
    '42 seconds',
    '90 seconds',
    '2 minutes',
    '59 minutes',
    '90 minutes',
    '2 hours',
    '24 hours',
  ]);
});

import { describe, expect, it } from 'vitest';
import { statusColour } from './my-orders-page';

describe('order status colours (spec 2.12, case-insensitive)', () => {
  it.each([
    ['pending', 'yellow'],
    ['PENDING', 'yellow'],
    ['delivered', 'green'],
    ['Success', 'green'],
    ['failed', 'red'],
    ['Cancelled', 'red'],
    ['Shipped', 'grey'],
    ['Processing', 'grey'],
  ])('%s is %s', (status, colour) => expect(statusColour(status)).toBe(colour));
});

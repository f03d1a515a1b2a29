import { describe, expect, it } from 'vitest';
import { cartTotal } from './cart-page';

describe('cart total', () => {
  it('sums unit price times quantity exactly, to the cent', () => {
    expect(
      cartTotal([
        { totalPrice: 0.1, totalQuantity: 3 },
        { totalPrice: 0.2, totalQuantity: 1 },
      ]),
    ).toBe(0.5);
    expect(cartTotal([{ totalPrice: 19.99, totalQuantity: 3 }])).toBe(59.97);
    expect(cartTotal([])).toBe(0);
  });
});

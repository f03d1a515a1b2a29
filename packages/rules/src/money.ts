// Money is computed in whole cents so totals are exact; it leaves the API as a number with 2 decimals.
// One rule for the API's order totals and the cart page's: unit price times quantity, summed in cents.
export type DecimalLike = { toString(): string } | number | string;

export const toCents = (amount: DecimalLike): number => Math.round(Number(amount.toString()) * 100);
export const fromCents = (cents: number): number => cents / 100;
export const toMoney = (amount: DecimalLike): number => fromCents(toCents(amount));

/** An order's total in cents: each line's unit price times its quantity, summed (spec 9). */
export const orderTotalCents = (lines: { price: DecimalLike; quantity: number }[]): number =>
  lines.reduce((cents, line) => cents + toCents(line.price) * line.quantity, 0);

/** The largest order total the database can hold: orders.total_price is DECIMAL(12,2). */
export const MAX_ORDER_TOTAL_CENTS = 999_999_999_999;
export const tooLargeForAnOrder = (cents: number) => !(cents <= MAX_ORDER_TOTAL_CENTS);
export const ORDER_TOO_LARGE_MESSAGE = `An order can total at most ${(MAX_ORDER_TOTAL_CENTS / 100).toLocaleString('en-US')}; please order fewer copies.`;

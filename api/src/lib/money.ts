// Money is computed in whole cents so totals are exact; it leaves the API as a number with 2 decimals.
type DecimalLike = { toString(): string } | number | string;

export const toCents = (amount: DecimalLike): number => Math.round(Number(amount.toString()) * 100);
export const fromCents = (cents: number): number => cents / 100;
export const toMoney = (amount: DecimalLike): number => fromCents(toCents(amount));

/** The largest order total the database can hold: orders.total_price is DECIMAL(12,2). */
export const MAX_ORDER_TOTAL_CENTS = 999_999_999_999;
export const tooLargeForAnOrder = (cents: number) => !(cents <= MAX_ORDER_TOTAL_CENTS);
export const ORDER_TOO_LARGE_MESSAGE = `An order can total at most ${(MAX_ORDER_TOTAL_CENTS / 100).toLocaleString('en-US')}; please order fewer copies.`;

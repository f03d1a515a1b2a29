// Money is computed in whole cents so totals are exact; it leaves the API as a number with 2 decimals.
type DecimalLike = { toString(): string } | number | string;

export const toCents = (amount: DecimalLike): number => Math.round(Number(amount.toString()) * 100);
export const fromCents = (cents: number): number => cents / 100;
export const toMoney = (amount: DecimalLike): number => fromCents(toCents(amount));

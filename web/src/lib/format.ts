export const money = (amount: number) => `$${amount.toFixed(2)}`;
export const rating = (value: number) => value.toFixed(1);
export const dateTime = (iso: string) => new Date(iso).toLocaleString();
/** Spec 9: image URLs are upgraded from http to https. */
export const https = (url: string | null | undefined) => (url ? url.replace(/^http:\/\//i, 'https://') : null);

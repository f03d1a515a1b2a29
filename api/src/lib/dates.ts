// Calendar dates as the forms send them (YYYY-MM-DD), and waits as a refusal words them. JavaScript's
// Date rolls an impossible date over (2023-02-31 becomes March 3rd) and PostgreSQL refuses year 0, so a
// date is checked field by field.

/** The date at midnight UTC when `text` names a day that exists between `minYear` and `maxYear`; otherwise null. */
export function parseCalendarDate(text: string, { minYear = 1, maxYear = 9999 } = {}): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < minYear || year > maxYear) return null;
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, takes years 1-99 as written rather than as 1901-1999.
  date.setUTCFullYear(year, month - 1, day);
  const exists = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return exists ? date : null;
}

/** How long to wait, as a person reads it: 42 seconds, 5 minutes, 24 hours. */
export function waitInWords(ms: number) {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  const [n, unit] =
    seconds <= 90 ? [seconds, 'second'] : seconds <= 90 * 60 ? [Math.ceil(seconds / 60), 'minute'] : [Math.ceil(seconds / 3600), 'hour'];
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

// ISBN-10 and ISBN-13 with their check digits; everything is stored as ISBN-13.

export function toIsbn13(input: string): string | null {
  const raw = input.replace(/[\s-]/g, '').toUpperCase();
  if (/^\d{13}$/.test(raw)) return isbn13CheckDigit(raw.slice(0, 12)) === raw[12] ? raw : null;
  if (/^\d{9}[\dX]$/.test(raw)) {
    const sum = [...raw].reduce((acc, ch, i) => acc + (ch === 'X' ? 10 : Number(ch)) * (10 - i), 0);
    if (sum % 11 !== 0) return null;
    const body = `978${raw.slice(0, 9)}`;
    return body + isbn13CheckDigit(body);
  }
  return null;
}

export function isbn13CheckDigit(first12: string): string {
  const sum = [...first12].reduce((acc, ch, i) => acc + Number(ch) * (i % 2 ? 3 : 1), 0);
  return String((10 - (sum % 10)) % 10);
}

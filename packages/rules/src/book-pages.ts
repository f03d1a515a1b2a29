// A book's shareable address, /books/{id}-{slug}: the storefront links to it and routes it, and the
// API answers it with the book's own title, canonical link, Open Graph tags and JSON-LD, and lists
// it in the sitemap. One definition, so the three always agree on a book's address.
// The id is the book copy's, as everywhere in the storefront (the spec's by-id call).

const SLUG_MAX_LENGTH = 80;

/** A title as lower-case ASCII words joined by '-': accents dropped, anything else a separator. */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, SLUG_MAX_LENGTH)
    .replace(/^-+|-+$/g, '');
}

/** The canonical path of a book's page; a title with no Latin letter or digit gives just the id. */
export function bookPagePath(id: number, name: string): string {
  const slug = slugify(name);
  return slug ? `/books/${id}-${slug}` : `/books/${id}`;
}

/** The id that a page address's last segment names ('42-the-hobbit', '42', or '42-an-old-title'), or null. */
export function bookPageId(segment: string): number | null {
  const match = /^([1-9]\d{0,8})(?:-|$)/.exec(segment);
  return match ? Number(match[1]) : null;
}

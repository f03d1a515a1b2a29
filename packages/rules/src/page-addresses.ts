// The shareable addresses of the storefront's own pages: a book's, /books/{id}-{slug}, and an
// author's, /authors/{id}-{slug}. The storefront links to them and routes them, and the API answers
// a book's with the book in its head and lists it in the sitemap. One definition, so all agree.
// A book's id is its copy's, as everywhere in the storefront (the spec's by-id call).

const SLUG_MAX_LENGTH = 80;

/** A title or a name as lower-case ASCII words joined by '-': accents dropped, anything else a separator. */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, SLUG_MAX_LENGTH)
    .replace(/^-+|-+$/g, '');
}

/** `/{section}/{id}-{slug}`; a name with no Latin letter or digit gives just the id. */
const pagePath = (section: 'books' | 'authors') => (id: number, name: string) => {
  const slug = slugify(name);
  return slug ? `/${section}/${id}-${slug}` : `/${section}/${id}`;
};

/** The canonical path of a book's page. */
export const bookPagePath = pagePath('books');
/** The canonical path of an author's page. */
export const authorPagePath = pagePath('authors');

/** The search results' screen (the spec's spelling); its text is in `?q=`, so a result can be shared. */
export const SEARCH_RESULTS_PATH = '/searchresult';

/** The id that a page address's last segment names ('42-the-hobbit', '42', or '42-an-old-title'), or null. */
export function idFromPageAddress(segment: string): number | null {
  const match = /^([1-9]\d{0,8})(?:-|$)/.exec(segment);
  return match ? Number(match[1]) : null;
}

/**
 * The storefront's screens at a one-segment address (any letter case). Any other one-segment address
 * is a category's page (/Fantasy): the server serves these the app's shell and reads anything else as
 * a category's name, answering 404 when no category has it. web/src/lib/paths.test.ts holds these
 * lists to the app's own paths.
 */
export const STOREFRONT_SCREEN_SEGMENTS = [
  'about',
  'contact',
  'login',
  'signup',
  'forgot-password',
  'reset-password',
  'cart',
  'detail',
  'orders',
  'account',
  'unsubscribe',
  'wishlist',
  'searchresult',
] as const;

/** The back-office's screens at a one-segment address (an employee's browser shows these instead). */
export const BACKOFFICE_SCREEN_SEGMENTS = [
  'dashboard',
  'clients',
  'employees',
  'authors',
  'books',
  'bookscopies',
  'orders',
  'employeeaccount',
  'reviews',
  'lowstock',
  'auditlog',
  'importexport',
  'mail',
] as const;

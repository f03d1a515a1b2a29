// Finding a book's facts from its ISBN. The bundled catalog (the seed data) answers offline; Open
// Library's public API answers in production. Either way the result has the same shape.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { AppError } from '../../lib/errors.ts';
import { BOOK_PAGES_MAX, NAME_MAX_CHARACTERS } from '../../schemas/backoffice-catalog.ts';

export interface IsbnRecord {
  title: string;
  author: string;
  category: string | null;
  publishedYear: number | null;
  pagesNumber: number | null;
  imageUrl: string | null;
  description: string | null;
}

export type IsbnLookup = (isbn13: string) => Promise<IsbnRecord | null>;

/** The seed catalog as a lookup, parsed once on first use. */
export function bundledCatalogLookup(csvPath = path.resolve(import.meta.dirname, '../../../../seed/books.csv')): IsbnLookup {
  let byIsbn: Map<string, IsbnRecord> | undefined;
  return async (isbn13) => {
    if (!byIsbn) {
      const { parseBooksCsv } = await import('../../../../seed/books-csv.ts');
      byIsbn = new Map(
        parseBooksCsv(readFileSync(csvPath, 'utf8'))
          .filter((b) => b.isbn13)
          .map((b) => [
            b.isbn13,
            {
              title: b.title,
              author: b.mainAuthor,
              category: b.category,
              publishedYear: b.year,
              pagesNumber: null,
              imageUrl: b.imageUrl,
              description: null,
            },
          ]),
      );
    }
    return byIsbn.get(isbn13) ?? null;
  };
}

const CATEGORY_KEYWORDS: [string, RegExp][] = [
  ['Fantasy', /fantasy|magic|dragons|wizards/i],
  ['Mystery', /myster|detective|crime|thriller|suspense/i],
  ['Astronomy', /astronom|cosmolog|astrophysic|outer space|planets/i],
  ['Biology', /biology|evolution|genetic|neuroscien|zoology|botany|medicine/i],
  ['Philosophy', /philosoph|ethics|stoic/i],
  ['Spirituality', /religio|spiritual|christian|buddhis|theolog|meditation/i],
  ['Autobiography', /autobiograph|memoir/i],
  ['Biography', /biograph/i],
  ['History', /history|archaeolog|anthropolog/i],
  ['Art', /\bart\b|painting|music|photograph|architecture|design/i],
];

// Open Library's records are anyone's edits: what the shop cannot keep is left out, not stored, so a
// record of 0 or 12.5 pages adds its book without them instead of failing the write (a CHECK keeps
// pages above 0), and a cover is only ever a web address.
const pageCount = (pages: unknown) =>
  typeof pages === 'number' && Number.isInteger(pages) && pages >= 1 && pages <= BOOK_PAGES_MAX ? pages : null;
const webAddress = (url: unknown) => (typeof url === 'string' && /^https?:\/\/[^\s]+$/i.test(url) && url.length <= 2048 ? url : null);
/**
 * A field meant as text, when it is some (a record may hold a number, a list or an object there),
 * trimmed and without control characters: a NUL is refused by PostgreSQL (Add Book answered 500),
 * and " Jane Doe " would be an author beside "Jane Doe". A `line` keeps no line breaks either.
 */
const text = (value: unknown) => {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes.
  const cleaned = typeof value === 'string' ? value.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '').trim() : '';
  return cleaned || null;
};
const line = (value: unknown) => text(value)?.replace(/\s+/g, ' ') ?? null;
/**
 * A name cut to what Edit Book allows: a record's title or author of thousands of letters failed the
 * write past the largest entry an index holds (a 500), and a title's word that long, stored, failed
 * every refresh of the search's vocabulary after it.
 */
const nameOf = (name: string) => [...name].slice(0, NAME_MAX_CHARACTERS).join('').trim();
/** The names of a list of `{ name }`, those that are text. */
const names = (list: unknown) => (Array.isArray(list) ? list.flatMap((item) => line((item as { name?: unknown } | null)?.name) ?? []) : []);

/** How long one lookup may take before it counts as failed. */
export const ISBN_LOOKUP_TIMEOUT_MS = 8_000;

/** Open Library's books API (`/api/books?bibkeys=ISBN:…&jscmd=data`). A failure there is a 502, not a 500. */
export function openLibraryLookup(baseUrl: string, fetchImpl: typeof fetch = fetch): IsbnLookup {
  return async (isbn13) => {
    const url = `${baseUrl.replace(/\/$/, '')}/api/books?bibkeys=ISBN:${isbn13}&format=json&jscmd=data`;
    let body: Record<string, OpenLibraryBook | undefined> | null;
    try {
      const response = await fetchImpl(url, {
        signal: AbortSignal.timeout(ISBN_LOOKUP_TIMEOUT_MS),
        headers: { accept: 'application/json' },
      });
      if (!response.ok) throw new Error(`status ${response.status}`);
      body = (await response.json()) as Record<string, OpenLibraryBook | undefined> | null;
    } catch {
      throw new AppError(502, 'ISBN_SERVICE_UNAVAILABLE', 'The ISBN service is not answering. Please try again later.');
    }
    // Any JSON may come back: a record of another shape is no record, never a 500.
    const book = body !== null && typeof body === 'object' ? body[`ISBN:${isbn13}`] : undefined;
    const title = line(book?.title);
    if (!book || !title) return null;
    const subtitle = line(book.subtitle);
    const subjects = names(book.subjects).join(' | ');
    const year = Number(text(book.publish_date)?.match(/\d{4}/)?.[0]);
    return {
      title: nameOf(subtitle ? `${title}: ${subtitle}` : title),
      author: nameOf(names(book.authors)[0] ?? 'Unknown author'),
      category: CATEGORY_KEYWORDS.find(([, re]) => re.test(subjects))?.[0] ?? null,
      publishedYear: Number.isInteger(year) ? year : null,
      pagesNumber: pageCount(book.number_of_pages),
      imageUrl: webAddress(book.cover?.medium),
      description: text(book.notes),
    };
  };
}

/** A record as Open Library's users left it: every field may be missing or of another type. */
interface OpenLibraryBook {
  title?: unknown;
  subtitle?: unknown;
  authors?: unknown;
  subjects?: unknown;
  publish_date?: unknown;
  number_of_pages?: unknown;
  cover?: { medium?: unknown } | null;
  notes?: unknown;
}

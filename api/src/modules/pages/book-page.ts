// A book's page as a link preview or a crawler sees it without running JavaScript: the built app's
// shell with the book's title, description, canonical link, Open Graph tags and schema.org Book
// JSON-LD in its head. The browser then renders the same screen as /Detail from the by-id call.
import { escapeMarkup } from '../../lib/text.ts';
import type { CatalogService } from '../catalog/catalog-service.ts';

export type BookPage = NonNullable<Awaited<ReturnType<CatalogService['bookPage']>>>;

const SHOP_NAME = 'Bookshop';
const CURRENCY = 'USD';
const DESCRIPTION_MAX_LENGTH = 160;

/** JSON inside <script>: '<' escaped, so no text of a book can close the element or open a comment. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/** Up to DESCRIPTION_MAX_LENGTH characters of the blurb, cut at a word; or what the card says. */
function summary(book: BookPage): string {
  const text = book.description.replace(/\s+/g, ' ').trim();
  if (!text) return `${book.name} by ${book.author}, in ${book.category}.`;
  const characters = [...text]; // whole characters, so no emoji or accent is cut in two
  if (characters.length <= DESCRIPTION_MAX_LENGTH) return text;
  const cut = characters.slice(0, DESCRIPTION_MAX_LENGTH - 1).join('');
  return `${cut.slice(0, cut.lastIndexOf(' ') > 80 ? cut.lastIndexOf(' ') : cut.length)}…`;
}

/** A cover a link preview can fetch: an https image, not the drawn data: cover of a book without one. */
const previewImage = (book: BookPage) => (book.imageUrl.startsWith('https://') ? book.imageUrl : null);

/** schema.org's Book, with its offer (price, stock) and the catalog's ratings. */
export function bookJsonLd(book: BookPage, url: string) {
  const image = previewImage(book);
  return {
    '@context': 'https://schema.org',
    '@type': 'Book',
    name: book.name,
    author: { '@type': 'Person', name: book.author },
    genre: book.category,
    url,
    ...(book.isbn ? { isbn: book.isbn } : {}),
    ...(image ? { image } : {}),
    ...(book.description ? { description: book.description } : {}),
    ...(book.ratingsCount > 0
      ? {
          aggregateRating: {
            '@type': 'AggregateRating',
            ratingValue: book.averageRating,
            ratingCount: book.ratingsCount,
            bestRating: 5,
            worstRating: 1,
          },
        }
      : {}),
    offers: {
      '@type': 'Offer',
      url,
      price: book.price.toFixed(2),
      priceCurrency: CURRENCY,
      availability: book.quantity > 0 ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
    },
  };
}

/** The head of a book's page: what replaces the shell's title and description, and what joins them. */
export function bookPageHead(book: BookPage, url: string) {
  const title = `${book.name} by ${book.author} · ${SHOP_NAME}`;
  const description = summary(book);
  const image = previewImage(book);
  // Marked with the book's id: the app drops them once it shows another book (they would describe the wrong one).
  const mark = `data-book-page="${book.id}"`;
  const meta = (property: string, content: string) => `<meta property="${property}" content="${escapeMarkup(content)}" ${mark} />`;
  return {
    title,
    description,
    tags: [
      `<link rel="canonical" href="${escapeMarkup(url)}" ${mark} />`,
      meta('og:type', 'book'),
      meta('og:site_name', SHOP_NAME),
      meta('og:title', `${book.name} by ${book.author}`),
      meta('og:description', description),
      meta('og:url', url),
      ...(image ? [meta('og:image', image)] : []),
      ...(book.isbn ? [meta('book:isbn', book.isbn)] : []),
      `<meta name="twitter:card" content="${image ? 'summary_large_image' : 'summary'}" ${mark} />`,
      `<script type="application/ld+json" ${mark}>${scriptJson(bookJsonLd(book, url))}</script>`,
    ],
  };
}

/** The head of an address that names no book on sale: the shell, kept out of search results. */
export const missingBookHead = () => ({
  title: `Book not found · ${SHOP_NAME}`,
  description: 'This book is not available.',
  tags: ['<meta name="robots" content="noindex" />'],
});

/**
 * The shell with this head: its <title> and description replaced, the other tags added before
 * </head>. A shell without a title or description gets them added instead.
 */
export function withHead(shell: string, head: { title: string; description: string; tags: string[] }): string {
  const title = `<title>${escapeMarkup(head.title)}</title>`;
  const description = `<meta name="description" content="${escapeMarkup(head.description)}" />`;
  let page = shell;
  const added: string[] = [];
  if (/<title>[^<]*<\/title>/.test(page)) page = page.replace(/<title>[^<]*<\/title>/, () => title);
  else added.push(title);
  if (/<meta name="description"[^>]*>/.test(page)) page = page.replace(/<meta name="description"[^>]*>/, () => description);
  else added.push(description);
  return page.replace('</head>', () => `${[...added, ...head.tags].join('\n    ')}\n  </head>`);
}

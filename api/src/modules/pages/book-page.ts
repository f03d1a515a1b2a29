// A book's page as a link preview or a crawler sees it without running JavaScript: the built app's
// shell with the book's title, description, canonical link, Open Graph tags and schema.org Book
// JSON-LD in its head. The browser then renders the same screen as /Detail from the by-id call.
import type { CatalogService } from '../catalog/catalog-service.ts';
import { notFoundHead, pageHead } from './page-markup.ts';

export type BookPage = NonNullable<Awaited<ReturnType<CatalogService['bookPage']>>>;

const CURRENCY = 'USD';
const DESCRIPTION_MAX_LENGTH = 160;

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

/** The head of a book's page, its tags marked with the book's id (the app drops them once it shows another book). */
export function bookPageHead(book: BookPage, url: string) {
  const image = previewImage(book);
  const properties: [string, string][] = [];
  if (image) properties.push(['og:image', image]);
  if (book.isbn) properties.push(['book:isbn', book.isbn]);
  return pageHead({
    name: `${book.name} by ${book.author}`,
    description: summary(book),
    url,
    mark: { attribute: 'data-book-page', value: book.id },
    ogType: 'book',
    properties,
    twitterCard: image ? 'summary_large_image' : 'summary',
    jsonLd: bookJsonLd(book, url),
  });
}

/** The head of an address that names no book on sale. */
export const missingBookHead = () => notFoundHead('Book not found', 'This book is not available.');

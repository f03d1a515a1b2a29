// An author's page as a link preview or a crawler sees it without running JavaScript: the built app's
// shell with the author in its title, description, canonical link, Open Graph tags and schema.org
// Person JSON-LD, and in its body a heading and the first page of their books, each linking to its
// book page. The browser then replaces that markup with the same screen rendered by the app.
import { bookPagePath } from '@bookshop/rules';
import { escapeMarkup } from '../../lib/text.ts';
import type { CatalogService } from '../catalog/catalog-service.ts';
import { bookLinkList, notFoundHead, pageHead, SHOP_NAME } from './page-markup.ts';

export type AuthorPage = Awaited<ReturnType<CatalogService['authorPage']>>;

/** Books on the server-rendered first page, as on the app's first page. */
export const AUTHOR_PAGE_SIZE = 15;

const booksOnSale = (author: AuthorPage) => `${author.totalBooks} book${author.totalBooks === 1 ? '' : 's'} on sale`;

/** schema.org's Person, with the books of the first page as their works. */
export function authorJsonLd(author: AuthorPage, url: string, origin: string) {
  return {
    '@context': 'https://schema.org',
    '@type': 'Person',
    name: author.name,
    url,
    workExample: author.books.map((book) => ({
      '@type': 'Book',
      name: book.name,
      url: origin + bookPagePath(book.id, book.name),
    })),
  };
}

/** The head of an author's page, its tags marked with the author's id as a book page's are with the book's. */
export const authorPageHead = (author: AuthorPage, url: string, origin: string) =>
  pageHead({
    name: author.name,
    description: `Books by ${author.name} at ${SHOP_NAME}: ${booksOnSale(author)}.`,
    url,
    mark: { attribute: 'data-author-page', value: author.id },
    ogType: 'profile',
    jsonLd: authorJsonLd(author, url, origin),
  });

/** The body's first paint: the heading and the first page of books, plain links a crawler follows. */
export const authorPageBody = (author: AuthorPage) =>
  `<main><h1>${escapeMarkup(author.name)}</h1><p>${booksOnSale(author)}</p>${bookLinkList(author.books)}</main>`;

/** The head of an address that names no author. */
export const missingAuthorHead = () => notFoundHead('Author not found', 'No author found.');

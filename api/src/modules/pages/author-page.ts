// An author's page as a link preview or a crawler sees it without running JavaScript: the built app's
// shell with the author in its title, description, canonical link, Open Graph tags and schema.org
// Person JSON-LD, and in its body a heading and the first page of their books, each linking to its
// book page. The browser then replaces that markup with the same screen rendered by the app.
import { bookPagePath } from '@bookshop/rules';
import { escapeMarkup } from '../../lib/text.ts';
import type { CatalogService } from '../catalog/catalog-service.ts';

export type AuthorPage = Awaited<ReturnType<CatalogService['authorPage']>>;

const SHOP_NAME = 'Bookshop';
/** Books on the server-rendered first page, as on the app's first page. */
export const AUTHOR_PAGE_SIZE = 15;

const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

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

/** The head of an author's page. */
export function authorPageHead(author: AuthorPage, url: string, origin: string) {
  const title = `${author.name} · ${SHOP_NAME}`;
  const description = `Books by ${author.name} at ${SHOP_NAME}: ${booksOnSale(author)}.`;
  // Marked with the author's id, as a book page's tags are with the book's.
  const mark = `data-author-page="${author.id}"`;
  const meta = (property: string, content: string) => `<meta property="${property}" content="${escapeMarkup(content)}" ${mark} />`;
  return {
    title,
    description,
    tags: [
      `<link rel="canonical" href="${escapeMarkup(url)}" ${mark} />`,
      meta('og:type', 'profile'),
      meta('og:site_name', SHOP_NAME),
      meta('og:title', author.name),
      meta('og:description', description),
      meta('og:url', url),
      `<meta name="twitter:card" content="summary" ${mark} />`,
      `<script type="application/ld+json" ${mark}>${scriptJson(authorJsonLd(author, url, origin))}</script>`,
    ],
  };
}

/** The body's first paint: the heading and the first page of books, plain links a crawler follows. */
export function authorPageBody(author: AuthorPage) {
  const items = author.books
    .map(
      (book) =>
        `<li><a href="${escapeMarkup(bookPagePath(book.id, book.name))}">${escapeMarkup(book.name)}</a> · ${book.price.toFixed(2)}</li>`,
    )
    .join('');
  return `<main><h1>${escapeMarkup(author.name)}</h1><p>${booksOnSale(author)}</p><ul>${items}</ul></main>`;
}

/** The head of an address that names no author: the shell, kept out of search results. */
export const missingAuthorHead = () => ({
  title: `Author not found · ${SHOP_NAME}`,
  description: 'No author found.',
  tags: ['<meta name="robots" content="noindex" />'],
});

/** The shell with this markup inside its (empty) root element, which the app replaces when it starts. */
export const withRootContent = (shell: string, html: string) =>
  shell.replace('<div id="root"></div>', () => `<div id="root">${html}</div>`);

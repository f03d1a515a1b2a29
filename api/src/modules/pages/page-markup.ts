// What every shareable page of the storefront gets from the server (a book's, an author's, a
// category's): in its head, its title and description in place of the shell's, a canonical link,
// Open Graph tags for link previews and schema.org JSON-LD for crawlers; in its body, for listings,
// plain links to the books a crawler follows. One builder, so the three pages write the same tags
// the same way and escape them the same way.
import { bookPagePath } from '@bookshop/rules';
import { escapeMarkup } from '../../lib/text.ts';

export const SHOP_NAME = 'Bookshop';

export interface PageHead {
  title: string;
  description: string;
  /** Tags added before </head>. */
  tags: string[];
}

/** JSON inside <script>: '<' escaped, so no text of a book can close the element or open a comment. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

export interface PageHeadFields {
  /** What the page shows (a book by its author, an author, a category): the title before the shop's name, and og:title. */
  name: string;
  description: string;
  /** The page's address, absolute: og:url, and the canonical link unless the page is kept out of search results. */
  url: string;
  /**
   * Kept out of search results (a search's results): a robots noindex tag in place of the canonical
   * link, which would name as the one to index a page we ask engines not to index.
   */
  noindex?: boolean;
  /**
   * The attribute each tag carries, as `data-book-page="12"`: the app drops the tags once it shows
   * another screen, which they would describe wrongly.
   */
  mark: { attribute: `data-${string}`; value: string | number };
  /** og:type: 'book', 'profile', 'website'. */
  ogType: string;
  /** Further Open Graph properties, in order (og:image, book:isbn). */
  properties?: [property: string, content: string][];
  /** A large preview when there is an image worth it. */
  twitterCard?: 'summary' | 'summary_large_image';
  jsonLd: object;
}

export function pageHead(page: PageHeadFields): PageHead {
  const mark = `${page.mark.attribute}="${escapeMarkup(String(page.mark.value))}"`;
  const meta = (property: string, content: string) => `<meta property="${property}" content="${escapeMarkup(content)}" ${mark} />`;
  return {
    title: `${page.name} · ${SHOP_NAME}`,
    description: page.description,
    tags: [
      page.noindex
        ? `<meta name="robots" content="noindex" ${mark} />`
        : `<link rel="canonical" href="${escapeMarkup(page.url)}" ${mark} />`,
      meta('og:type', page.ogType),
      meta('og:site_name', SHOP_NAME),
      meta('og:title', page.name),
      meta('og:description', page.description),
      meta('og:url', page.url),
      ...(page.properties ?? []).map(([property, content]) => meta(property, content)),
      `<meta name="twitter:card" content="${page.twitterCard ?? 'summary'}" ${mark} />`,
      `<script type="application/ld+json" ${mark}>${scriptJson(page.jsonLd)}</script>`,
    ],
  };
}

/** The head of an address that names nothing on sale: the shell, kept out of search results. */
export const notFoundHead = (title: string, description: string): PageHead => ({
  title: `${title} · ${SHOP_NAME}`,
  description,
  tags: ['<meta name="robots" content="noindex" />'],
});

/**
 * The shell with this head: its <title> and description replaced, the other tags added before
 * </head>. A shell without a title or description gets them added instead.
 */
export function withHead(shell: string, head: PageHead): string {
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

/** The shell with this markup inside its (empty) root element, which the app replaces when it starts. */
export const withRootContent = (shell: string, html: string) =>
  shell.replace('<div id="root"></div>', () => `<div id="root">${html}</div>`);

/** A page of a listing (a category's, a search's), as the browse and search calls answer it. */
export interface ListingPage {
  booksCopies: { id: number; name: string; price: number }[];
  pageNumber: number;
  total: number;
  totalEstimated: boolean;
  totalPages: number;
}

/** "120 books", "about 4,100 books" (an estimate), "1 book". */
export const bookCount = (listing: ListingPage) =>
  `${listing.totalEstimated ? 'about ' : ''}${listing.total.toLocaleString('en-US')} book${listing.total === 1 ? '' : 's'}`;

/**
 * schema.org's CollectionPage or SearchResultsPage, its main entity the list of the books shown,
 * numbered from the page's first.
 */
export function listingJsonLd(
  type: 'CollectionPage' | 'SearchResultsPage',
  page: { name: string; url: string; origin: string; pageSize: number },
  listing: ListingPage,
) {
  const first = (listing.pageNumber - 1) * page.pageSize;
  return {
    '@context': 'https://schema.org',
    '@type': type,
    name: page.name,
    url: page.url,
    mainEntity: {
      '@type': 'ItemList',
      numberOfItems: listing.total,
      itemListElement: listing.booksCopies.map((book, i) => ({
        '@type': 'ListItem',
        position: first + i + 1,
        name: book.name,
        url: page.origin + bookPagePath(book.id, book.name),
      })),
    },
  };
}

/** Books as a list of plain links to their pages, with the price: a listing's first paint. */
export const bookLinkList = (books: { id: number; name: string; price: number }[]) =>
  `<ul>${books
    .map(
      (book) =>
        `<li><a href="${escapeMarkup(bookPagePath(book.id, book.name))}">${escapeMarkup(book.name)}</a> · ${book.price.toFixed(2)}</li>`,
    )
    .join('')}</ul>`;

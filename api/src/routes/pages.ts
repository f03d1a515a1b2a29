// What a shopper can share and a search engine can read, served with the web app (not API calls, so
// not in openapi.yaml): a book's page at /books/{id}-{slug}, with the book in its head; an author's
// page at /authors/{id}-{slug}, a category's at /{name} and a search's results at /searchresult?q=
// (any sort, filters and page in the query string), each with its subject in its head and body; the
// sitemap, in files of a fixed size; and robots.txt.
import {
  authorPagePath,
  BACKOFFICE_SCREEN_SEGMENTS,
  bookPagePath,
  idFromPageAddress,
  SEARCH_RESULTS_PATH,
  STOREFRONT_SCREEN_SEGMENTS,
} from '@bookshop/rules';
import { type BrowseState, browseQuery, browseSearchParams, clampedPage, parseBrowseState, searchTextOf } from '@bookshop/rules/browse';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.ts';
import { publicOrigin } from '../lib/public-origin.ts';
import { browseCategoryListing, browseSearchListing } from '../modules/catalog/browse-listings.ts';
import { CACHED_READS } from '../modules/catalog/cached-reads.ts';
import { AUTHOR_PAGE_SIZE, authorPageBody, authorPageHead, missingAuthorHead } from '../modules/pages/author-page.ts';
import { bookPageHead, missingBookHead } from '../modules/pages/book-page.ts';
import {
  CATEGORY_PAGE_SIZE,
  categoryPageBody,
  categoryPageHead,
  categoryPagePath,
  missingCategoryHead,
} from '../modules/pages/category-page.ts';
import { type ListingPage, notFoundHead, withHead, withRootContent } from '../modules/pages/page-markup.ts';
import { SEARCH_PAGE_SIZE, searchPageBody, searchPageHead } from '../modules/pages/search-page.ts';
import { CATEGORIES_SITEMAP_PATH, robotsTxt, sitemapIndex, urlSet } from '../modules/pages/sitemap.ts';

const storefrontScreens = new Set<string>(STOREFRONT_SCREEN_SEGMENTS);
const backofficeScreens = new Set<string>(BACKOFFICE_SCREEN_SEGMENTS);

const pageRoutes: FastifyPluginAsync = async (app) => {
  const shell = app.webShell;
  if (!shell) return; // no web app served here, so no pages to describe
  // Without PUBLIC_URL the links name the address each request came to, which a shared cache must
  // not hand to anyone else; with it, crawlers may keep the sitemap for an hour.
  const sitemapCacheControl = app.config.publicUrl ? 'public, max-age=3600' : 'no-cache';
  if (!app.config.publicUrl && app.config.env === 'production') {
    app.log.warn('PUBLIC_URL is not set: book pages, the sitemap and reset e-mails name the address each request came to');
  }

  const origin = (request: FastifyRequest) => publicOrigin(app.config, request);
  const hidden = { schema: { hide: true } };
  const queryOf = (request: FastifyRequest) => new URLSearchParams(request.url.split('?')[1] ?? '');

  /**
   * Where an address whose page is past its listing's last goes (spec 2.5 clamps paging to
   * 1..totalPages): the same address at its last page, as the storefront moves it; null when the
   * page is in range. A temporary redirect, as the last page moves when the catalog changes.
   */
  const pastLastPage = (path: string, state: BrowseState, listing: ListingPage, keep: Record<string, string> = {}) => {
    const last = clampedPage(state, listing.totalPages);
    if (last === undefined) return null;
    const query = browseSearchParams({ ...state, page: last }, keep).toString();
    return query ? `${path}?${query}` : path;
  };

  // A search's results: its text from ?q= read as the storefront reads it, and the search call's
  // cached answer for that text and state. Without a text the app shows the one it kept, so the
  // shell is served as it is.
  const searchPage = async (request: FastifyRequest, reply: FastifyReply) => {
    const query = queryOf(request);
    const text = searchTextOf(query.get('q') ?? '');
    if (!text) return reply.callNotFound();
    const state = parseBrowseState(query);
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache');
    // A text the search refuses (no letter or digit in it) is refused here as the call refuses it.
    const listing = await browseSearchListing(app, text, browseQuery(state, SEARCH_PAGE_SIZE)).catch((error: unknown) => {
      if (error instanceof AppError && error.statusCode < 500) return error;
      throw error;
    });
    if (listing instanceof AppError) {
      return reply.code(listing.statusCode).send(withHead(shell(), notFoundHead('Search', listing.message)));
    }
    const lastPage = pastLastPage(SEARCH_RESULTS_PATH, state, listing, { q: text });
    if (lastPage) return reply.redirect(lastPage, 302);
    const page = withHead(shell(), searchPageHead(text, listing, state, origin(request)));
    return withRootContent(page, searchPageBody(text, listing, state));
  };

  app.get<{ Params: { ref: string } }>('/books/:ref', hidden, async (request, reply) => {
    const id = idFromPageAddress(request.params.ref);
    const book = id === null ? null : await app.catalog.bookPage(id);
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache');
    if (!book) return reply.code(404).send(withHead(shell(), missingBookHead()));
    // An old title or a bare id moves for good to the one address a book is known by.
    const canonicalPath = bookPagePath(book.id, book.name);
    if (request.url.split('?')[0] !== canonicalPath) return reply.redirect(canonicalPath, 301);
    return withHead(shell(), bookPageHead(book, origin(request) + canonicalPath));
  });

  // An author's page: the author in the head, and the heading and first page of books in the body.
  app.get<{ Params: { ref: string } }>('/authors/:ref', hidden, async (request, reply) => {
    const id = idFromPageAddress(request.params.ref);
    // No such author is a 404 page; any other failure (the database down) answers as an error does.
    const author =
      id === null
        ? null
        : await app.catalog.authorPage(id, 1, AUTHOR_PAGE_SIZE).catch((error: unknown) => {
            if (error instanceof AppError && error.statusCode === 404) return null;
            throw error;
          });
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache');
    if (!author) return reply.code(404).send(withHead(shell(), missingAuthorHead()));
    const canonicalPath = authorPagePath(author.id, author.name);
    if (request.url.split('?')[0] !== canonicalPath) return reply.redirect(canonicalPath, 301);
    const page = withHead(shell(), authorPageHead(author, origin(request) + canonicalPath, origin(request)));
    return withRootContent(page, authorPageBody(author));
  });

  // A category's page: any one-segment address that is not one of the app's screens. The storefront
  // reads the address's sort, filters and page with the same rules (anything it does not understand
  // is dropped, never refused), and the books are the browse call's cached answer for that state.
  app.get<{ Params: { segment: string } }>('/:segment', hidden, async (request, reply) => {
    const segment = request.params.segment.toLowerCase();
    if (`/${segment}` === SEARCH_RESULTS_PATH) return searchPage(request, reply);
    // The storefront's own routes come before its category route; the API's prefix is no page at all.
    if (segment === 'api' || storefrontScreens.has(segment)) return reply.callNotFound();
    const types = await app.catalogCache.read('types', app.catalog.types, CACHED_READS.types);
    const category = types.find((type) => type.name.toLowerCase() === segment);
    if (!category && backofficeScreens.has(segment)) return reply.callNotFound();
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache');
    if (!category) return reply.code(404).send(withHead(shell(), missingCategoryHead()));
    const state = parseBrowseState(queryOf(request));
    const listing = await browseCategoryListing(app, category.name, browseQuery(state, CATEGORY_PAGE_SIZE));
    const lastPage = pastLastPage(`/${encodeURIComponent(request.params.segment)}`, state, listing);
    if (lastPage) return reply.redirect(lastPage, 302);
    const url = origin(request) + categoryPagePath(category.name);
    const page = withHead(shell(), categoryPageHead(category.name, listing, state, url, origin(request)));
    return withRootContent(page, categoryPageBody(category.name, listing, state));
  });

  app.get('/sitemap.xml', hidden, async (request, reply) => {
    reply.type('application/xml; charset=utf-8').header('cache-control', sitemapCacheControl);
    return sitemapIndex(origin(request), await app.catalog.sitemapFileCount());
  });

  app.get<{ Params: { file: string } }>('/sitemaps/:file', hidden, async (request, reply) => {
    const { file } = request.params;
    const bookFile = /^books-([1-9]\d{0,6})\.xml$/.exec(file);
    let paths: string[];
    if (`/sitemaps/${file}` === CATEGORIES_SITEMAP_PATH) {
      paths = (await app.catalog.types()).map((type) => categoryPagePath(type.name));
    } else if (bookFile && Number(bookFile[1]) <= (await app.catalog.sitemapFileCount())) {
      paths = (await app.catalog.sitemapBooks(Number(bookFile[1]))).map((book) => bookPagePath(book.id, book.name));
    } else {
      return reply.code(404).type('text/plain; charset=utf-8').send('No such sitemap.');
    }
    reply.type('application/xml; charset=utf-8').header('cache-control', sitemapCacheControl);
    return urlSet(origin(request), paths);
  });

  app.get('/robots.txt', hidden, async (request, reply) => {
    reply.type('text/plain; charset=utf-8').header('cache-control', sitemapCacheControl);
    return robotsTxt(origin(request));
  });
};

export default pageRoutes;

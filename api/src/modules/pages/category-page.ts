// A category's page (/Fantasy, with any sort, filters and page in its query string) as a link
// preview or a crawler sees it without running JavaScript: the built app's shell with the category
// in its title, description, canonical link, Open Graph tags and schema.org CollectionPage JSON-LD
// (an ItemList of the books shown), and in its body the heading and the page of books the address
// asks for: the browse call's answer for the same state, so the very books the app then shows. The
// browser replaces that markup with the same screen rendered by the app, as on an author's page.
//
// Canonical: every state of a category (any sort, filters or page) names the category's plain
// address, /fantasy, the one the sitemap lists (decision 15).
import { type BrowseState, hasFilters } from '@bookshop/rules/browse';
import { escapeMarkup } from '../../lib/text.ts';
import type { CatalogService } from '../catalog/catalog-service.ts';
import { bookCount, bookLinkList, listingJsonLd, notFoundHead, pageHead, SHOP_NAME } from './page-markup.ts';

export type CategoryListing = Awaited<ReturnType<CatalogService['browseCategory']>>;

/** Books on the server-rendered page, as on the app's category pages (CATEGORY_PAGE_SIZE there). */
export const CATEGORY_PAGE_SIZE = 15;

/** A category's one indexed address: its name in lower case, as the sitemap lists it. */
export const categoryPagePath = (name: string) => `/${encodeURIComponent(name.toLowerCase())}`;

/** What the page lists: the category's books on sale, or those that pass the address's filters. */
const listed = (listing: CategoryListing, state: BrowseState) =>
  hasFilters(state) ? `${bookCount(listing)} that match the chosen filters` : `${bookCount(listing)} on sale`;

/** The head of a category's page, its tags marked with the category so the app drops them on leaving it. */
export const categoryPageHead = (name: string, listing: CategoryListing, state: BrowseState, url: string, origin: string) =>
  pageHead({
    name,
    description: `${name} at ${SHOP_NAME}: ${listed(listing, state)}.`,
    url,
    mark: { attribute: 'data-category-page', value: name.toLowerCase() },
    ogType: 'website',
    jsonLd: listingJsonLd('CollectionPage', { name, url, origin, pageSize: CATEGORY_PAGE_SIZE }, listing),
  });

/** The body's first paint: the heading and the page of books, plain links a crawler follows. */
export function categoryPageBody(name: string, listing: CategoryListing, state: BrowseState) {
  const books = listing.booksCopies.length
    ? bookLinkList(listing.booksCopies)
    : `<p>${hasFilters(state) ? 'No books match these filters.' : 'No books in this category yet.'}</p>`;
  return `<main><h1>${escapeMarkup(name)}</h1><p>${listed(listing, state)}</p>${books}</main>`;
}

/** The head of a one-segment address that is neither a screen nor a category. */
export const missingCategoryHead = () => notFoundHead('Category not found', 'No such category.');

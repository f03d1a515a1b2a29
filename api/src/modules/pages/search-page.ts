// A search's results (/searchresult?q=harry, with any sort, filters and page) as a link preview sees
// them without running JavaScript: the shell with the search's text in its title, description and
// Open Graph tags, schema.org SearchResultsPage JSON-LD (an ItemList of the books shown), and in its
// body the heading and the page of books the search call answers for the same text and state (the
// same cached answer), as the app then shows them.
//
// Kept out of search engines: robots.txt disallows /searchresult, and the page says noindex should
// one be reached anyway. So it has no canonical link (it would name as the one to index a page we
// ask engines not to index, decision 15); og:url names the search's plain address, its text alone,
// so a shared filtered link previews as the search it belongs to.
import { type BrowseState, hasFilters } from '@bookshop/rules/browse';
import { SEARCH_RESULTS_PATH } from '@bookshop/rules/page-addresses';
import { escapeMarkup } from '../../lib/text.ts';
import { bookCount, bookLinkList, type ListingPage, listingJsonLd, pageHead, SHOP_NAME } from './page-markup.ts';

/** Books on the server-rendered page, as on the app's search results (CATEGORY_PAGE_SIZE there). */
export const SEARCH_PAGE_SIZE = 15;

/** A search's plain address: its text alone, no sort, filters or page. */
export const searchPagePath = (text: string) => `${SEARCH_RESULTS_PATH}?${new URLSearchParams({ q: text })}`;

/** What the search found, as the app's heading and empty texts say it (spec 2.6). */
const found = (text: string, listing: ListingPage, state: BrowseState) => {
  if (listing.total === 0 && !hasFilters(state)) return `No results found for “${text}”`;
  return `${bookCount(listing)} ${hasFilters(state) ? 'that match the chosen filters' : 'found'} for “${text}”`;
};

/** The head of a search's results, its tags marked so the app drops them once it shows another search or screen. */
export const searchPageHead = (text: string, listing: ListingPage, state: BrowseState, origin: string) => {
  const url = origin + searchPagePath(text);
  const name = `Search: ${text}`;
  return pageHead({
    name,
    description: `${found(text, listing, state)} at ${SHOP_NAME}.`,
    url,
    noindex: true,
    mark: { attribute: 'data-search-page', value: 'results' },
    ogType: 'website',
    jsonLd: listingJsonLd('SearchResultsPage', { name, url, origin, pageSize: SEARCH_PAGE_SIZE }, listing),
  });
};

/** The body's first paint, worded as the app's screen (spec 2.6): the heading and the page of books, plain links. */
export function searchPageBody(text: string, listing: ListingPage, state: BrowseState) {
  const quoted = escapeMarkup(text);
  if (listing.total === 0 && !hasFilters(state)) return `<main><p>No results found for <strong>${quoted}</strong></p></main>`;
  const books = listing.booksCopies.length ? bookLinkList(listing.booksCopies) : '<p>No books match these filters.</p>';
  return `<main><h1>Search Results for <q>${quoted}</q></h1><p>${escapeMarkup(bookCount(listing))}</p>${books}</main>`;
}

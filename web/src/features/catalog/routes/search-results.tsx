import { BROWSE_SORTS, hasFilters, hasSearchWords, searchTextOf } from '@bookshop/rules/browse';
import { useEffect } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';
import { BookCover } from '../../../components/book-cover';
import { LoadError } from '../../../components/load-error';
import { clampPage, Paging } from '../../../components/paging';
import { CATEGORY_PAGE_SIZE } from '../../../lib/constants';
import { useDocumentTitle } from '../../../lib/document-title';
import { money, rating } from '../../../lib/format';
import { storage } from '../../../lib/storage';
import { useBrowseSearch } from '../browse/browse-api';
import { BrowseControls } from '../browse/browse-controls';
import { useBrowseState, useClampedToLastPage } from '../browse/use-browse-state';
import { AuthorLink } from '../components/author-link';
import { useOpenBook } from '../components/book-card';
import { WishAction } from '../components/wish-action';

/**
 * /searchresult (spec 2.6): the text from the address (?q=, so results can be shared), else the one
 * the top bar passed, else storage. Beyond the spec: paged, with a sort and filters with counts, all
 * in the address.
 */
export default function SearchResultsPage() {
  const openBook = useOpenBook();
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  // Read as the server's first paint reads ?q= (trimmed, cut to what the search call takes), so both
  // ask the same question.
  const query = searchTextOf(params.get('q') ?? (location.state as { q?: string } | null)?.q ?? storage.getSearchQuery());
  const [state, setState] = useBrowseState(['q']);
  // The address names the text, so a copied link searches it again.
  useEffect(() => {
    if (params.get('q') === null && query) setParams({ q: query }, { replace: true, state: location.state });
  }, [params, query, setParams, location.state]);
  const { data, isPending, isError, error, refetch, isPlaceholderData } = useBrowseSearch(query, state, CATEGORY_PAGE_SIZE);
  const pastEnd = useClampedToLastPage(state, setState, isPlaceholderData ? undefined : data?.totalPages);
  useDocumentTitle(query ? `Search: ${query}` : 'Search');
  // The server's head for a shared search describes that search only: it leaves when the text does.
  useEffect(() => {
    if (!query) return; // the server sends its head only for a search's text
    return () => {
      for (const tag of document.head.querySelectorAll('[data-search-page]')) tag.remove();
    };
  }, [query]);
  if (!query) return <p className="empty">Type a title or an author in the search box.</p>;
  const noResults = (
    <p className="empty">
      No results found for <strong>{query}</strong>
    </p>
  );
  // Text with no letter or digit ("?", "--") has nothing to look for, and is not asked for
  // (useBrowseSearch): the spec says of every search that finds nothing that it found nothing.
  if (!hasSearchWords(query)) return noResults;
  if (isPending || pastEnd) return <p className="muted">Searching for books...</p>;
  if (isError) return <LoadError what="the search results" error={error} onRetry={() => void refetch()} />;
  if (data.total === 0 && !hasFilters(state)) return noResults;
  const totalPages = Math.max(1, data.totalPages);
  return (
    <div className="search-results browse">
      <h1>
        Search Results for <q>{query}</q>
      </h1>
      <BrowseControls
        state={state}
        facets={data.facets}
        total={data.total}
        totalEstimated={data.totalEstimated}
        sorts={[...BROWSE_SORTS]}
        relevanceLabel="Best match"
        onChange={setState}
      />
      <div className="browse-results">
        {data.booksCopies.length === 0 && !isPlaceholderData && <p className="empty">No books match these filters.</p>}
        <div className="result-grid" aria-busy={isPlaceholderData}>
          {data.booksCopies.map((book) => (
            <article key={book.id} className="result-card">
              <button type="button" className="cover-button" aria-label={`Open ${book.name}`} onClick={() => openBook(book.id)}>
                <BookCover src={book.imageUrl} title={book.name} author={book.author} />
              </button>
              <WishAction bookCopyId={book.id} name={book.name} />
              <div>
                <h2>{book.name}</h2>
                <p>
                  Author: <AuthorLink id={book.authorId} name={book.author} />
                </p>
                <p>Category: {book.category}</p>
                <p className="clamp-2">{book.description}</p>
                <p className="book-price">{money(book.price)}</p>
                <p className="book-rating">
                  ★ {rating(book.averageRating)} <span className="muted">({book.ratingsCount.toLocaleString('en-US')} reviews)</span>
                </p>
              </div>
            </article>
          ))}
        </div>
        {/* Clamped above, in place, so Paging's own clamp never writes a history entry. */}
        <Paging
          page={Math.min(state.page ?? 1, totalPages)}
          totalPages={totalPages}
          onPage={(p) => {
            setState({ ...state, page: clampPage(p, totalPages) });
            window.scrollTo({ top: 0 });
          }}
        />
      </div>
    </div>
  );
}

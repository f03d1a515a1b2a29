import { BROWSE_SORTS, hasFilters } from '@bookshop/rules/browse';
import { useEffect } from 'react';
import { Navigate, useParams } from 'react-router-dom';
import { LoadError } from '../../../components/load-error';
import { clampPage, Paging } from '../../../components/paging';
import { CATEGORY_PAGE_SIZE } from '../../../lib/constants';
import { useDocumentTitle } from '../../../lib/document-title';
import { paths } from '../../../lib/paths';
import { useBookTypes } from '../api/get-types';
import { useBrowseCategory } from '../browse/browse-api';
import { BrowseControls } from '../browse/browse-controls';
import { useBrowseState, useClampedToLastPage } from '../browse/use-browse-state';
import { BookCard } from '../components/book-card';

/**
 * One category page (spec 2.5): a grid of 15, Prev/Next and 'Page X of Y'; beyond the spec, a sort
 * and filters with counts, all in the address (shareable; Back undoes the last choice).
 */
function CategoryPage({ category }: { category: string }) {
  useDocumentTitle(category);
  // A first visit arrives with the server's head for this category (canonical link, Open Graph,
  // JSON-LD; the canonical is the category's whatever the sort and filters, so it stays true while
  // they change); they describe no other screen, so they leave with this category.
  useEffect(
    () => () => {
      for (const tag of document.head.querySelectorAll('[data-category-page]')) tag.remove();
    },
    [],
  );
  const [state, setState] = useBrowseState();
  const page = state.page ?? 1;
  const { data, isPending, isError, error, refetch, isPlaceholderData } = useBrowseCategory(category, state, CATEGORY_PAGE_SIZE);
  // Only the answer for this very address says whether its page is past the end (not the previous
  // one kept on screen meanwhile).
  const pastEnd = useClampedToLastPage(state, setState, isPlaceholderData ? undefined : data?.totalPages);
  const totalPages = Math.max(1, data?.totalPages ?? 1);
  return (
    <div className="category browse">
      <h1 id="category-heading">{category}</h1>
      <BrowseControls
        state={state}
        facets={data?.facets}
        total={data?.total}
        totalEstimated={data?.totalEstimated ?? false}
        sorts={[...BROWSE_SORTS]}
        relevanceLabel="Most rated"
        onChange={setState}
      />
      <div className="browse-results">
        {(isPending || pastEnd) && <p className="muted">Loading...</p>}
        {isError && <LoadError what="this category's books" error={error} onRetry={() => void refetch()} />}
        {data && !pastEnd && !isPlaceholderData && data.booksCopies.length === 0 && (
          <p className="empty">{hasFilters(state) ? 'No books match these filters.' : 'No books in this category yet.'}</p>
        )}
        {data && data.booksCopies.length > 0 && (
          <section className="grid" aria-labelledby="category-heading" aria-busy={isPlaceholderData}>
            {data.booksCopies.map((book) => (
              <BookCard key={book.id} book={book} headingLevel={2} />
            ))}
          </section>
        )}
        {/*
          Not before an answer: until then the page count is unknown, and an address's page 2 is no
          page past the end. The page is clamped above, in place, so Paging's own clamp never writes a
          history entry for it.
        */}
        {data && !pastEnd && (
          <Paging
            page={Math.min(page, totalPages)}
            totalPages={totalPages}
            onPage={(p) => {
              setState({ ...state, page: clampPage(p, totalPages) });
              window.scrollTo({ top: 0 });
            }}
          />
        )}
      </div>
    </div>
  );
}

/**
 * /{category name} for each book type, in any letter case (/Fantasy and /fantasy); any other path
 * goes home. The category list is the types call's, so a new category needs no code.
 */
export default function CategoryRoute() {
  const { category = '' } = useParams();
  const { data: types, isPending, error, refetch } = useBookTypes();
  if (isPending) return <p className="muted">Loading...</p>;
  // Unknown until the categories are read: going home would drop the address, its sort and filters.
  if (!types) return <LoadError what="the categories" error={error} onRetry={() => void refetch()} />;
  const type = types?.find((t) => t.name.toLowerCase() === category.toLowerCase());
  if (!type) return <Navigate to={paths.home} replace />;
  // Keyed by category, so moving to another category starts again at page 1.
  return <CategoryPage key={type.name} category={type.name} />;
}

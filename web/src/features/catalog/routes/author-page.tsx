import { idFromPageAddress } from '@bookshop/rules/page-addresses';
import { useEffect } from 'react';
import { Navigate, useLocation, useParams, useSearchParams } from 'react-router-dom';
import { isNotFound } from '../../../api/client';
import { LoadError } from '../../../components/load-error';
import { clampPage, Paging } from '../../../components/paging';
import { CATEGORY_PAGE_SIZE } from '../../../lib/constants';
import { useDocumentTitle } from '../../../lib/document-title';
import { rating } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { pageOf } from '../../../lib/use-address-state';
import { useAuthorPage } from '../api/get-author-page';
import { BookCard } from '../components/book-card';

/**
 * An author's books on sale with the ratings, most-rated first, paged as a category is. An outdated
 * name or a bare id gives way to the canonical address. The page is in the address, so Back from a
 * book and a reload come back to it.
 */
function AuthorPage({ authorId }: { authorId: number | null }) {
  const { pathname, search } = useLocation();
  const [params, setParams] = useSearchParams();
  const page = pageOf(params);
  const setPage = (next: number) => setParams(next === 1 ? {} : { page: String(next) });
  const { data, isPending, isError, error, refetch, isPlaceholderData } = useAuthorPage(authorId, page, CATEGORY_PAGE_SIZE);
  useDocumentTitle(data?.name ?? 'Author');
  // A first visit arrives with the server's head for this author (canonical link, Open Graph,
  // JSON-LD); they describe no other screen, so they leave with this one.
  useEffect(
    () => () => {
      for (const tag of document.head.querySelectorAll('[data-author-page]')) tag.remove();
    },
    [],
  );

  const missing = authorId === null || isNotFound(error);
  if (missing) return <p className="empty">No author found.</p>;
  if (isError) return <LoadError what="this author's books" error={error} onRetry={() => void refetch()} />;
  if (isPending) return <p className="muted">Loading...</p>;
  if (pathname !== paths.author(data.id, data.name))
    return <Navigate to={{ pathname: paths.author(data.id, data.name), search }} replace />;
  // A page past the end (a shared address, books sold out since) moves to the last one in place.
  if (data.totalPages >= 1 && page > data.totalPages)
    return <Navigate to={{ pathname, search: data.totalPages === 1 ? '' : `?page=${data.totalPages}` }} replace />;
  return (
    <div className="category">
      <p className="eyebrow">Author</p>
      <h1 id="author-heading">{data.name}</h1>
      <p className="muted">{data.totalBooks === 1 ? '1 book on sale' : `${data.totalBooks.toLocaleString('en-US')} books on sale`}</p>
      {data.books.length === 0 ? (
        <p className="empty">No books by this author are on sale right now.</p>
      ) : (
        <section className="grid" aria-labelledby="author-heading" aria-busy={isPlaceholderData}>
          {data.books.map((book) => (
            <BookCard
              key={book.id}
              book={book}
              headingLevel={2}
              action={
                <p className="book-rating">
                  <span aria-hidden="true">★</span> {rating(book.averageRating)}{' '}
                  <span className="muted">({book.ratingsCount.toLocaleString('en-US')} ratings)</span>
                </p>
              }
            />
          ))}
        </section>
      )}
      <Paging
        page={page}
        totalPages={data.totalPages}
        onPage={(p) => {
          setPage(clampPage(p, data.totalPages));
          window.scrollTo({ top: 0 });
        }}
      />
    </div>
  );
}

/** /authors/{id}-{slug} (beyond the spec); keyed by author, so another author starts at page 1. */
export default function AuthorRoute() {
  const authorId = idFromPageAddress(useParams().authorRef ?? '');
  return <AuthorPage key={authorId} authorId={authorId} />;
}

import { useLocation } from 'react-router-dom';
import { BookCover } from '../../../components/book-cover';
import { LoadError } from '../../../components/load-error';
import { useDocumentTitle } from '../../../lib/document-title';
import { money, rating } from '../../../lib/format';
import { storage } from '../../../lib/storage';
import { useSearchBooks } from '../api/search-books';
import { AuthorLink } from '../components/author-link';
import { useOpenBook } from '../components/book-card';
import { WishAction } from '../components/wish-action';

/** /searchresult (spec 2.6): reads the search text from storage. */
export default function SearchResultsPage() {
  const openBook = useOpenBook();
  // The top bar passes the text along too, so a new search re-renders this page.
  const query = (useLocation().state as { q?: string } | null)?.q ?? storage.getSearchQuery();
  const { data, isPending, isError, error, refetch } = useSearchBooks(query);
  useDocumentTitle(query.trim() ? `Search: ${query.trim()}` : 'Search');
  if (!query.trim()) return <p className="empty">Type a title or an author in the search box.</p>;
  if (isPending) return <p className="muted">Searching for books...</p>;
  if (isError) return <LoadError what="the search results" error={error} onRetry={() => void refetch()} />;
  if (data.length === 0) {
    return (
      <p className="empty">
        No results found for <strong>{query}</strong>
      </p>
    );
  }
  return (
    <div className="search-results">
      <h1>
        Search Results for <q>{query}</q>
      </h1>
      <div className="result-grid">
        {data.map((book) => (
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
    </div>
  );
}

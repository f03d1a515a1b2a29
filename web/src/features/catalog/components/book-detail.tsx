// The detail screen of one book (spec 2.4), shown by /Detail for the book kept in storage and by
// /books/{id}-{slug} for the book its address names.
import { useEffect } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { isNotFound } from '../../../api/client';
import { BookCover } from '../../../components/book-cover';
import { LoadError } from '../../../components/load-error';
import { SIMILAR_BOOKS_PAGE_SIZE } from '../../../lib/constants';
import { useDocumentTitle } from '../../../lib/document-title';
import { paths } from '../../../lib/paths';
import { useBook } from '../api/get-book';
import { useCategoryPage } from '../api/get-category-page';
import { BookCard } from './book-card';
import { BookFacts } from './book-facts';
import { BookReviews } from './book-reviews';
import { BuyAction } from './buy-action';

function SimilarBooks({ category, currentId, onPick }: { category: string; currentId: number; onPick: (id: number) => void }) {
  const { data } = useCategoryPage(category, 1, SIMILAR_BOOKS_PAGE_SIZE);
  const similar = (data?.booksCopies ?? []).filter((b) => b.id !== currentId);
  if (!similar.length) return null;
  return (
    <section className="home-list" aria-labelledby="similar">
      <h2 id="similar">Similar Books</h2>
      <div className="scroller">
        {similar.map((b) => (
          <BookCard key={b.id} book={b} onOpen={onPick} />
        ))}
      </div>
    </section>
  );
}

/** A book's detail, with its similar books (`onPick` opens one) and Show More for its category. */
export function BookDetail({ bookId, onPick }: { bookId: number; onPick: (id: number) => void }) {
  const navigate = useNavigate();
  const { data: book, isPending, isError, error, refetch } = useBook(bookId);
  useDocumentTitle(book?.name ?? 'Book');

  // A first visit to /books/… arrives with the server's head for that book (canonical link, Open
  // Graph, JSON-LD); once another book is shown here, those tags describe the wrong one.
  useEffect(() => {
    for (const tag of document.head.querySelectorAll(`[data-book-page]:not([data-book-page="${bookId}"])`)) tag.remove();
  }, [bookId]);

  if (isPending) return <p className="muted">Loading...</p>;
  // Only the shop's "no such book" says it is not available; an outage or a lost connection is a
  // load that failed, and may be tried again.
  if (isError && !isNotFound(error)) return <LoadError what="this book" error={error} onRetry={() => void refetch()} />;
  if (isError || !book) return <p className="empty">This book is not available.</p>;
  const address = paths.book(book.id, book.name);
  const serverWroteCanonical = document.head.querySelector(`link[rel="canonical"][data-book-page="${book.id}"]`) !== null;
  return (
    <div className="detail">
      {/* React puts this in the head, unless the server already did: the one address the book is known by. */}
      {!serverWroteCanonical && <link rel="canonical" href={new URL(address, window.location.origin).href} />}
      <div className="detail-main">
        <BookCover src={book.imageUrl} title={book.name} author={book.author} className="large" />
        <div>
          <p className="eyebrow">{book.category}</p>
          <h1>{book.name}</h1>
          <BookFacts book={book} />
          <BuyAction bookCopyId={book.id} stock={book.quantity} />
          <p className="share-link">
            <Link to={address}>Link to this book</Link>
          </p>
        </div>
      </div>
      <BookReviews copyId={book.id} />
      <SimilarBooks category={book.category} currentId={book.id} onPick={onPick} />
      <button type="button" onClick={() => navigate(paths.category(book.category.toLowerCase()))}>
        Show More
      </button>
    </div>
  );
}

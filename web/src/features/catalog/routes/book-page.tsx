import { idFromPageAddress } from '@bookshop/rules/page-addresses';
import { Navigate, useLocation, useNavigate, useParams } from 'react-router-dom';
import { paths } from '../../../lib/paths';
import { useBook } from '../api/get-book';
import { BookDetail } from '../components/book-detail';

/**
 * /books/{id}-{slug}: the detail screen of the book the address names, so a refresh, a bookmark or
 * a shared link shows it. An outdated title or a bare id gives way to the canonical address (the
 * server answers those with a redirect too; this covers moves within the app).
 */
export default function BookPage() {
  const navigate = useNavigate();
  const bookId = idFromPageAddress(useParams().bookRef ?? '');
  const { pathname } = useLocation();
  const { data: book } = useBook(bookId);

  if (bookId === null) return <p className="empty">This book is not available.</p>;
  if (book && pathname !== paths.book(book.id, book.name)) {
    return <Navigate to={paths.book(book.id, book.name)} replace />;
  }
  const open = (id: number) => {
    // A card gives only the id: the page moves on to the canonical address once the book has loaded.
    navigate(paths.book(id, ''));
    window.scrollTo({ top: 0 });
  };
  // Keyed by book, so another book starts its reviews and rating form afresh.
  return <BookDetail key={bookId} bookId={bookId} onPick={open} />;
}

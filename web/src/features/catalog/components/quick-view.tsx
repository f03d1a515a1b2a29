import { isNotFound } from '../../../api/client';
import { BookCover } from '../../../components/book-cover';
import { LoadError } from '../../../components/load-error';
import { Modal } from '../../../components/modal';
import { useBook } from '../api/get-book';
import { BookFacts } from './book-facts';
import { BuyAction } from './buy-action';

/** The quick-view modal of spec 2.3. */
export function QuickView({ bookId, onClose }: { bookId: number; onClose: () => void }) {
  const { data: book, isPending, isError, error, refetch } = useBook(bookId);
  return (
    <Modal title={book?.name ?? 'Book'} onClose={onClose}>
      {isPending && <p>Loading...</p>}
      {isError &&
        (isNotFound(error) ? (
          <p role="alert">This book is not available.</p>
        ) : (
          <LoadError what="this book" error={error} onRetry={() => void refetch()} />
        ))}
      {book && (
        <div className="quick-view">
          <BookCover src={book.imageUrl} title={book.name} author={book.author} className="large" />
          <div>
            <h2>{book.name}</h2>
            <BookFacts book={book} />
            <BuyAction bookCopyId={book.id} stock={book.quantity} />
          </div>
        </div>
      )}
    </Modal>
  );
}

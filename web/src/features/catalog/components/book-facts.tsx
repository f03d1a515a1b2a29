import { money, rating } from '../../../lib/format';
import type { BookDetail } from '../api/get-book';
import { AuthorLink } from './author-link';

/** Author, average rating (1 decimal) with its count, description, price (2 decimals), stock or 'Out of Stock'. */
export function BookFacts({ book }: { book: BookDetail }) {
  return (
    <div className="book-facts">
      <p className="book-author">
        by <AuthorLink id={book.authorId} name={book.author} />
      </p>
      <p className="book-rating">
        <span aria-hidden="true">★</span> {rating(book.averageRating)}{' '}
        <span className="muted">({book.ratingsCount.toLocaleString('en-US')} ratings)</span>
      </p>
      <p className="book-description">{book.description}</p>
      <p className="book-price big">{money(book.price)}</p>
      <p className={book.quantity > 0 ? 'stock' : 'stock out'}>{book.quantity > 0 ? `${book.quantity} available` : 'Out of Stock'}</p>
    </div>
  );
}

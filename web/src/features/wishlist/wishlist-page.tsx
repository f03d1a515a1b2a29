import { useRef } from 'react';
import { Link } from 'react-router-dom';
import { BookCover } from '../../components/book-cover';
import { Notice, useNotice } from '../../components/notice';
import { QueryView } from '../../components/query-view';
import { useDocumentTitle } from '../../lib/document-title';
import { money } from '../../lib/format';
import { LoginRedirect } from '../../lib/login-redirect';
import { paths } from '../../lib/paths';
import { useSession } from '../../lib/session';
import { useWishlist } from './api/get-wishlist';
import { WishlistHeart } from './components/wishlist-heart';

/** /wishlist (beyond the spec): the copies the client wishes for, and which can be bought now. */
export default function WishlistPage() {
  useDocumentTitle('Wishlist');
  const { loggedIn, ready } = useSession();
  const wishlist = useWishlist();
  const [notice, show] = useNotice();
  // A book taken off the list takes its focused heart with it: the focus goes to the heading, and the
  // removal is said.
  const heading = useRef<HTMLHeadingElement>(null);
  if (ready && !loggedIn) return <LoginRedirect />;
  return (
    <div className="wishlist">
      <h1 ref={heading} tabIndex={-1}>
        Wishlist
      </h1>
      <Notice notice={notice} />
      <QueryView
        query={wishlist}
        what="your wishlist"
        empty={{ text: 'Your wishlist is empty. Tap the heart on a book to keep it here.', when: (data) => data.length === 0 }}
      >
        {(data) => (
          <ul className="wishlist-items">
            {data.map((book) => (
              <li key={book.id}>
                <BookCover src={book.imageUrl} title={book.name} author={book.authorName} className="tiny" />
                <div>
                  <Link to={paths.book(book.id, book.name)}>{book.name}</Link>
                  <p className="muted">{book.authorName}</p>
                  <p>
                    {money(book.price)} ·{' '}
                    {book.available && book.quantity > 0 ? (
                      <span className="stock">{book.quantity} available</span>
                    ) : (
                      <span className="stock out">Out of Stock: we will tell you when it is back</span>
                    )}
                  </p>
                </div>
                <WishlistHeart
                  bookCopyId={book.id}
                  name={book.name}
                  onUnwished={() => {
                    heading.current?.focus();
                    show(`${book.name} was taken off your wishlist.`);
                  }}
                />
              </li>
            ))}
          </ul>
        )}
      </QueryView>
    </div>
  );
}

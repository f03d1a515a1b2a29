import { useState } from 'react';
import { focusMainRegion } from '../../../lib/focus-on-navigation';
import { storage } from '../../../lib/storage';
import { BookDetail } from '../components/book-detail';

/** /Detail: the book whose id is kept in storage (spec 2.4); a similar book replaces it in place. */
export default function DetailPage() {
  const [bookId, setBookId] = useState(storage.getBookId);

  const pick = (id: number) => {
    storage.setBookId(id);
    setBookId(id);
    window.scrollTo({ top: 0 });
    // The address stays /Detail, so no navigation moves the focus: the button picked is gone with the
    // book it was under, and the focus goes to the screen, as it does after a navigation.
    focusMainRegion();
  };

  if (bookId === null) return <p className="empty">Choose a book to see its details.</p>;
  // Keyed by book, so another book starts its reviews and rating form afresh.
  return <BookDetail key={bookId} bookId={bookId} onPick={pick} />;
}

import type { ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { BookCover } from '../../../components/book-cover';
import { money } from '../../../lib/format';
import { storage } from '../../../lib/storage';

export interface CardBook {
  id: number;
  name: string;
  imageUrl: string | null;
  authorName: string;
  price: number;
}

/** Opens /Detail for a book: its id is kept in storage, as spec 2.3 says. */
export function useOpenBook() {
  const navigate = useNavigate();
  return (id: number) => {
    storage.setBookId(id);
    navigate('/Detail');
  };
}

export function BookCard({ book, action, onOpen }: { book: CardBook; action?: ReactNode; onOpen?: (id: number) => void }) {
  const openDetail = useOpenBook();
  const open = onOpen ?? openDetail;
  return (
    <article className="book-card">
      <button type="button" className="cover-button" onClick={() => open(book.id)} aria-label={`Open ${book.name}`}>
        <BookCover src={book.imageUrl} title={book.name} author={book.authorName} />
      </button>
      <h3 className="book-name" title={book.name}>
        {book.name}
      </h3>
      <p className="book-author">{book.authorName}</p>
      <p className="book-price">{money(book.price)}</p>
      {action}
    </article>
  );
}

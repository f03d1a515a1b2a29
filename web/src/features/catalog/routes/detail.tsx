import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { BookCover } from '../../../components/book-cover';
import { SIMILAR_BOOKS_PAGE_SIZE } from '../../../lib/constants';
import { useDocumentTitle } from '../../../lib/document-title';
import { paths } from '../../../lib/paths';
import { storage } from '../../../lib/storage';
import { useBook } from '../api/get-book';
import { useCategoryPage } from '../api/get-category-page';
import { BookCard } from '../components/book-card';
import { BookFacts } from '../components/book-facts';
import { BuyAction } from '../components/buy-action';

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

/** /Detail: the book whose id is kept in storage (spec 2.4). */
export default function DetailPage() {
  const navigate = useNavigate();
  const [bookId, setBookId] = useState(storage.getBookId);
  const { data: book, isPending, isError } = useBook(bookId);
  useDocumentTitle(book?.name ?? 'Book');

  const pick = (id: number) => {
    storage.setBookId(id);
    setBookId(id);
    window.scrollTo({ top: 0 });
  };

  if (bookId === null) return <p className="empty">Choose a book to see its details.</p>;
  if (isPending) return <p className="muted">Loading...</p>;
  if (isError || !book) return <p className="empty">This book is not available.</p>;
  return (
    <div className="detail">
      <div className="detail-main">
        <BookCover src={book.imageUrl} title={book.name} author={book.author} className="large" />
        <div>
          <p className="eyebrow">{book.category}</p>
          <h1>{book.name}</h1>
          <BookFacts book={book} />
          <BuyAction bookCopyId={book.id} stock={book.quantity} />
        </div>
      </div>
      <SimilarBooks category={book.category} currentId={book.id} onPick={pick} />
      <button type="button" onClick={() => navigate(paths.category(book.category.toLowerCase()))}>
        Show More
      </button>
    </div>
  );
}

import { type ReactNode, useId } from 'react';
import { useNavigate } from 'react-router-dom';
import type { Schemas } from '../../../api/types';
import { BookCover } from '../../../components/book-cover';
import { money } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { storage } from '../../../lib/storage';
import { AuthorLink } from './author-link';
import { WishAction } from './wish-action';

/** What a card shows of a book: the home lists' cards and the category pages' details both have it. */
export type CardBook = Pick<Schemas['BookCard'], 'id' | 'name' | 'imageUrl' | 'authorName' | 'authorId' | 'price'>;

/** Opens /Detail for a book: its id is kept in storage, as spec 2.3 says. */
export function useOpenBook() {
  const navigate = useNavigate();
  return (id: number) => {
    storage.setBookId(id);
    navigate(paths.detail);
  };
}

/**
 * `headingLevel`: one below the heading the cards sit under (h2 on a category page, under its h1;
 * h3 in the home lists, under their h2), so a screen reader's outline skips no level.
 * `action`: what the card offers under its price; given the id of the card's title, a button whose
 * name is the same on every card (the spec's "Add to Cart") is described by the book it is for.
 */
export function BookCard({
  book,
  action,
  onOpen,
  headingLevel = 3,
}: {
  book: CardBook;
  action?: ReactNode | ((titleId: string) => ReactNode);
  onOpen?: (id: number) => void;
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  // Per card, not per book: a book may be in two of the home lists at once.
  const titleId = useId();
  const openDetail = useOpenBook();
  const open = onOpen ?? openDetail;
  return (
    <article className="book-card">
      <button type="button" className="cover-button" onClick={() => open(book.id)} aria-label={`Open ${book.name}`}>
        <BookCover src={book.imageUrl} title={book.name} author={book.authorName} />
      </button>
      <WishAction bookCopyId={book.id} name={book.name} />
      <Heading className="book-name" title={book.name} id={titleId}>
        {book.name}
      </Heading>
      <p className="book-author">
        <AuthorLink id={book.authorId} name={book.authorName} />
      </p>
      <p className="book-price">{money(book.price)}</p>
      {typeof action === 'function' ? action(titleId) : action}
    </article>
  );
}

import { useState } from 'react';
import { LoadError } from '../../../components/load-error';
import { useDocumentTitle } from '../../../lib/document-title';
import { HOME_LISTS, type HomeListPath, useHomeList } from '../api/get-home-list';
import { BookCard } from '../components/book-card';
import { QuickView } from '../components/quick-view';

function HomeList({ title, path, onQuickView }: { title: string; path: HomeListPath; onQuickView: (id: number) => void }) {
  const { data, isPending, isError, error, refetch } = useHomeList(path);
  const headingId = `list-${title.replace(/\s+/g, '-').toLowerCase()}`;
  return (
    <section className="home-list" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      {isPending && <p className="muted">Loading...</p>}
      {isError && <LoadError what={`the ${title} list`} error={error} onRetry={() => void refetch()} />}
      {data && data.length === 0 && <p className="muted">No books here yet.</p>}
      {data && data.length > 0 && (
        <div className="scroller">
          {data.map((book) => (
            <BookCard
              key={book.id}
              book={book}
              action={(titleId) => (
                <button type="button" className="primary" onClick={() => onQuickView(book.id)} aria-describedby={titleId}>
                  Add to Cart
                </button>
              )}
            />
          ))}
        </div>
      )}
    </section>
  );
}

export default function HomePage() {
  useDocumentTitle();
  const [quickView, setQuickView] = useState<number | null>(null);
  return (
    <div className="home">
      <section className="hero">
        <h1>Find your next great read</h1>
        <p>Over five thousand books across ten categories, from fantasy epics to the history of the universe.</p>
      </section>
      {HOME_LISTS.map((list) => (
        <HomeList key={list.key} title={list.title} path={list.path} onQuickView={setQuickView} />
      ))}
      {quickView !== null && <QuickView bookId={quickView} onClose={() => setQuickView(null)} />}
    </div>
  );
}

import { useState } from 'react';
import { clampPage, Paging } from '../../../components/paging';
import { CATEGORY_PAGE_SIZE } from '../../../lib/constants';
import { useCategoryPage } from '../api/get-category-page';
import { BookCard } from '../components/book-card';

/** One category page (spec 2.5): a grid of 15, Prev/Next and 'Page X of Y'. Each category route mounts its own, so paging starts at 1. */
export default function CategoryPage({ category }: { category: string }) {
  const [page, setPage] = useState(1);
  const { data, isPending, isError } = useCategoryPage(category, page, CATEGORY_PAGE_SIZE);
  const totalPages = data?.totalPages ?? 1;
  return (
    <div className="category">
      <h1>{category}</h1>
      {isPending && <p className="muted">Loading...</p>}
      {isError && <p className="empty">This category is not available right now.</p>}
      {data && data.booksCopies.length === 0 && <p className="empty">No books in this category yet.</p>}
      {data && data.booksCopies.length > 0 && (
        <div className="grid">
          {data.booksCopies.map((book) => (
            <BookCard key={book.id} book={book} />
          ))}
        </div>
      )}
      <Paging
        page={page}
        totalPages={totalPages}
        onPage={(p) => {
          setPage(clampPage(p, totalPages));
          window.scrollTo({ top: 0 });
        }}
      />
    </div>
  );
}

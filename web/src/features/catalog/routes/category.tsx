import { useState } from 'react';
import { Navigate, useParams } from 'react-router-dom';
import { clampPage, Paging } from '../../../components/paging';
import { CATEGORY_PAGE_SIZE } from '../../../lib/constants';
import { useDocumentTitle } from '../../../lib/document-title';
import { paths } from '../../../lib/paths';
import { useCategoryPage } from '../api/get-category-page';
import { useBookTypes } from '../api/get-types';
import { BookCard } from '../components/book-card';

/** One category page (spec 2.5): a grid of 15, Prev/Next and 'Page X of Y'. */
function CategoryPage({ category }: { category: string }) {
  useDocumentTitle(category);
  const [page, setPage] = useState(1);
  const { data, isPending, isError, isPlaceholderData } = useCategoryPage(category, page, CATEGORY_PAGE_SIZE);
  const totalPages = data?.totalPages ?? 1;
  return (
    <div className="category">
      <h1 id="category-heading">{category}</h1>
      {isPending && <p className="muted">Loading...</p>}
      {isError && <p className="empty">This category is not available right now.</p>}
      {data && data.booksCopies.length === 0 && <p className="empty">No books in this category yet.</p>}
      {data && data.booksCopies.length > 0 && (
        <section className="grid" aria-labelledby="category-heading" aria-busy={isPlaceholderData}>
          {data.booksCopies.map((book) => (
            <BookCard key={book.id} book={book} headingLevel={2} />
          ))}
        </section>
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

/**
 * /{category name} for each book type, in any letter case (/Fantasy and /fantasy); any other path
 * goes home. The category list is the types call's, so a new category needs no code.
 */
export default function CategoryRoute() {
  const { category = '' } = useParams();
  const { data: types, isPending } = useBookTypes();
  if (isPending) return <p className="muted">Loading...</p>;
  const type = types?.find((t) => t.name.toLowerCase() === category.toLowerCase());
  if (!type) return <Navigate to={paths.home} replace />;
  // Keyed by category, so moving to another category starts again at page 1.
  return <CategoryPage key={type.name} category={type.name} />;
}

-- The home lists' candidates, the same rows in the same positions, each list read in its own order from
-- an index and stopped at its size. The view before joined every available copy to its book and ranked
-- the whole join four times over: 4-12 s a refresh at a million books (issue 32's day), and every
-- checkout burst asks for one. Each list now reads the index that already holds its order:
--   New Releases   books (published_at DESC), each book's available copies;
--   Bestsellers    book_copies (units_sold DESC);
--   Top Rated      books_top_rated_idx below: the average, then the count, of the books past 10,000
--                  ratings (most books of a catalog like the seed's: ranking them all read nearly every row);
--   Recommended    books (type_id, ratings_count DESC), 60 per category.
-- Ties are broken by the copy's id, as before: a book's copies come in id order within their book's
-- place, and the positions are numbered over the few rows kept, in the same order.
-- An expression index, so schema.prisma does not describe it (as the words index of search_by_words).
CREATE INDEX books_top_rated_idx ON books ((ratings_sum::numeric / ratings_count) DESC, ratings_count DESC)
  WHERE ratings_count >= 10000;

DROP MATERIALIZED VIEW home_list_candidates;
CREATE MATERIALIZED VIEW home_list_candidates AS
WITH new_releases AS (
  SELECT c.id, b.type_id, b.published_at
  FROM books b JOIN book_copies c ON c.book_id = b.id AND c.is_available
  WHERE b.published_at IS NOT NULL
  ORDER BY b.published_at DESC, c.id DESC
  LIMIT 40
),
best_sellers AS (
  SELECT c.id, b.type_id, c.units_sold
  FROM book_copies c JOIN books b ON b.id = c.book_id
  WHERE c.is_available AND c.units_sold > 0
  ORDER BY c.units_sold DESC, c.id
  LIMIT 40
),
top_rated AS (
  SELECT c.id, b.type_id, b.ratings_sum::numeric / b.ratings_count AS average, b.ratings_count
  FROM books b JOIN book_copies c ON c.book_id = b.id AND c.is_available
  WHERE b.ratings_count >= 10000
  ORDER BY b.ratings_sum::numeric / b.ratings_count DESC, b.ratings_count DESC, c.id
  LIMIT 40
),
recommended AS (
  SELECT pool.id, t.id AS type_id, pool.ratings_count
  FROM book_types t CROSS JOIN LATERAL (
    SELECT c.id, b.ratings_count
    FROM books b JOIN book_copies c ON c.book_id = b.id AND c.is_available AND c.quantity > 0
    WHERE b.type_id = t.id AND b.ratings_count >= 5000 AND b.ratings_sum >= 4 * b.ratings_count
    ORDER BY b.ratings_count DESC, c.id
    LIMIT 60
  ) pool
)
SELECT 'new-releases'::text AS list, id AS copy_id, type_id,
       (row_number() OVER (ORDER BY published_at DESC, id DESC))::int AS position
FROM new_releases
UNION ALL
SELECT 'best-sellers', id, type_id, (row_number() OVER (ORDER BY units_sold DESC, id))::int FROM best_sellers
UNION ALL
SELECT 'top-rated', id, type_id, (row_number() OVER (ORDER BY average DESC, ratings_count DESC, id))::int FROM top_rated
UNION ALL
SELECT 'recommended', id, type_id, (row_number() OVER (ORDER BY type_id, ratings_count DESC, id))::int FROM recommended;
CREATE UNIQUE INDEX home_list_candidates_list_position ON home_list_candidates (list, position);

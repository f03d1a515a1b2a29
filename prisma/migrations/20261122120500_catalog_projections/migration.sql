-- Hand-written: catalog projections, precomputed so that what the storefront reads does not grow
-- with the catalog (see docs/decisions/0007-catalog-projections.md). Each holds ids and order only;
-- price, stock and availability are always read live, so a projection can lag behind a change by
-- its refresh delay but never shows a wrong price or an unavailable copy. The API refreshes them
-- (CONCURRENTLY, so reads never wait) after the writes that change them.

-- Category pages: each available copy's position in its category (most-rated first), so page N is
-- an index range and the page count is the last position, whatever the page and the catalog size.
CREATE MATERIALIZED VIEW category_listing AS
SELECT c.id AS copy_id, b.type_id,
       row_number() OVER (PARTITION BY b.type_id ORDER BY b.ratings_count DESC, c.id)::int AS position
FROM books b JOIN book_copies c ON c.book_id = b.id AND c.is_available;
CREATE UNIQUE INDEX category_listing_type_position ON category_listing (type_id, position);
CREATE UNIQUE INDEX category_listing_copy ON category_listing (copy_id);

-- The four home lists' candidates, in order: twice the list size, so copies withdrawn since the
-- last refresh are skipped without a short list. Recommended keeps a pool of well-rated copies per
-- category; the daily shuffle runs over that pool at read time.
CREATE MATERIALIZED VIEW home_list_candidates AS
WITH available AS (
  SELECT c.id, c.units_sold, c.quantity, b.type_id, b.published_at, b.ratings_count, b.ratings_sum
  FROM books b JOIN book_copies c ON c.book_id = b.id AND c.is_available
),
new_releases AS (
  SELECT 'new-releases'::text AS list, id, row_number() OVER (ORDER BY published_at DESC, id DESC) AS position
  FROM available WHERE published_at IS NOT NULL ORDER BY position LIMIT 40
),
best_sellers AS (
  SELECT 'best-sellers'::text AS list, id, row_number() OVER (ORDER BY units_sold DESC, id) AS position
  FROM available WHERE units_sold > 0 ORDER BY position LIMIT 40
),
top_rated AS (
  SELECT 'top-rated'::text AS list, id,
         row_number() OVER (ORDER BY ratings_sum::numeric / ratings_count DESC, ratings_count DESC, id) AS position
  FROM available WHERE ratings_count >= 10000 ORDER BY position LIMIT 40
),
recommended AS (
  SELECT 'recommended'::text AS list, id, row_number() OVER (ORDER BY type_id, rank) AS position FROM (
    SELECT id, type_id, row_number() OVER (PARTITION BY type_id ORDER BY ratings_count DESC, id) AS rank
    FROM available WHERE ratings_count >= 5000 AND ratings_sum >= 4 * ratings_count AND quantity > 0
  ) pool WHERE rank <= 60
)
SELECT list, id AS copy_id, position::int AS position FROM new_releases
UNION ALL SELECT list, id, position::int FROM best_sellers
UNION ALL SELECT list, id, position::int FROM top_rated
UNION ALL SELECT list, id, position::int FROM recommended;
CREATE UNIQUE INDEX home_list_candidates_list_position ON home_list_candidates (list, position);

-- Searches a trigram index cannot serve: one- and two-letter words (a trigram needs three letters)
-- and the commonest words, which match most of the catalog. For each such term, the 200 most-rated
-- books with a word that starts with it (or, for a common word, that is it).
CREATE MATERIALIZED VIEW search_shortcuts AS
WITH words AS (
  SELECT DISTINCT b.id AS book_id, b.ratings_count, w.word
  FROM books b CROSS JOIN LATERAL unnest(string_to_array(b.search_text, ' ')) AS w(word)
  WHERE w.word <> '' AND EXISTS (SELECT 1 FROM book_copies c WHERE c.book_id = b.id AND c.is_available)
),
common AS (
  SELECT word FROM words WHERE length(word) >= 3 GROUP BY word ORDER BY count(*) DESC, word LIMIT 100
),
terms AS (
  SELECT DISTINCT book_id, ratings_count, left(word, 1) AS term FROM words
  UNION
  SELECT book_id, ratings_count, left(word, 2) FROM words WHERE length(word) >= 2
  UNION
  SELECT book_id, ratings_count, word FROM words WHERE word IN (SELECT word FROM common)
),
ranked AS (
  SELECT term, book_id, row_number() OVER (PARTITION BY term ORDER BY ratings_count DESC, book_id) AS rank FROM terms
)
SELECT term, array_agg(book_id ORDER BY rank) AS book_ids FROM ranked WHERE rank <= 200 GROUP BY term;
CREATE UNIQUE INDEX search_shortcuts_term ON search_shortcuts (term);

-- The planner prices pg_trgm's similarity operator as cheap as an equality and, on a small catalog,
-- prefers scanning every book to the trigram index ("tolkien": 48 ms scanned, 1.4 ms indexed). Its
-- real cost per row is far higher; saying so makes the index the plan at every size.
ALTER FUNCTION word_similarity_op(text, text) COST 1000;

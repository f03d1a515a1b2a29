-- Hand-written: search by words instead of by trigrams of the whole text (docs/decisions/0008).
-- A search's every word must match a word of the book: itself, a word it begins, or (when it is no
-- word of the catalog) a close spelling of one. The spellings come from the catalog's vocabulary, a
-- few thousand words that a trigram index searches in a millisecond; the books then come from a GIN
-- index on each book's words, where the rarest word bounds the work. Ranking the whole-text trigram
-- matches instead grew with the catalog (a typo of a common name: 0.3-0.5 s at a million books).

-- Every word of the catalog, with how many books have it.
CREATE MATERIALIZED VIEW search_vocabulary AS
SELECT w.word, count(DISTINCT b.id)::int AS books
FROM books b CROSS JOIN LATERAL unnest(string_to_array(b.search_text, ' ')) AS w(word)
WHERE w.word <> ''
GROUP BY w.word;
CREATE UNIQUE INDEX search_vocabulary_word ON search_vocabulary (word);
CREATE INDEX search_vocabulary_word_trgm ON search_vocabulary USING GIN (word gin_trgm_ops);

-- Each book's words, for "has one of these words" (&&) over the whole catalog.
CREATE INDEX books_search_words_idx ON books USING GIN (string_to_array(search_text, ' '));
-- The whole-text trigram index served only the search this replaces.
DROP INDEX books_search_text_trgm_idx;

-- The shortcuts also hold every word in a thousand books or more (not only the 100 commonest): a
-- lone word that frequent matches too many books to rank them per request.
DROP MATERIALIZED VIEW search_shortcuts;
CREATE MATERIALIZED VIEW search_shortcuts AS
WITH words AS (
  SELECT DISTINCT b.id AS book_id, b.ratings_count, w.word
  FROM books b CROSS JOIN LATERAL unnest(string_to_array(b.search_text, ' ')) AS w(word)
  WHERE w.word <> '' AND EXISTS (SELECT 1 FROM book_copies c WHERE c.book_id = b.id AND c.is_available)
),
counted AS (
  SELECT word, count(*) AS books, row_number() OVER (ORDER BY count(*) DESC, word) AS commonness
  FROM words WHERE length(word) >= 3 GROUP BY word
),
common AS (SELECT word FROM counted WHERE commonness <= 100 OR books >= 1000),
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

-- The home lists' candidates also carry their category: Recommended shuffles its pool per category
-- without joining books for each of the pool's copies (a third of its time).
DROP MATERIALIZED VIEW home_list_candidates;
CREATE MATERIALIZED VIEW home_list_candidates AS
WITH available AS (
  SELECT c.id, c.units_sold, c.quantity, b.type_id, b.published_at, b.ratings_count, b.ratings_sum
  FROM books b JOIN book_copies c ON c.book_id = b.id AND c.is_available
),
new_releases AS (
  SELECT 'new-releases'::text AS list, id, type_id, row_number() OVER (ORDER BY published_at DESC, id DESC) AS position
  FROM available WHERE published_at IS NOT NULL ORDER BY position LIMIT 40
),
best_sellers AS (
  SELECT 'best-sellers'::text AS list, id, type_id, row_number() OVER (ORDER BY units_sold DESC, id) AS position
  FROM available WHERE units_sold > 0 ORDER BY position LIMIT 40
),
top_rated AS (
  SELECT 'top-rated'::text AS list, id, type_id,
         row_number() OVER (ORDER BY ratings_sum::numeric / ratings_count DESC, ratings_count DESC, id) AS position
  FROM available WHERE ratings_count >= 10000 ORDER BY position LIMIT 40
),
recommended AS (
  SELECT 'recommended'::text AS list, id, type_id, row_number() OVER (ORDER BY type_id, rank) AS position FROM (
    SELECT id, type_id, row_number() OVER (PARTITION BY type_id ORDER BY ratings_count DESC, id) AS rank
    FROM available WHERE ratings_count >= 5000 AND ratings_sum >= 4 * ratings_count AND quantity > 0
  ) pool WHERE rank <= 60
)
SELECT list, id AS copy_id, type_id, position::int AS position FROM new_releases
UNION ALL SELECT list, id, type_id, position::int FROM best_sellers
UNION ALL SELECT list, id, type_id, position::int FROM top_rated
UNION ALL SELECT list, id, type_id, position::int FROM recommended;
CREATE UNIQUE INDEX home_list_candidates_list_position ON home_list_candidates (list, position);

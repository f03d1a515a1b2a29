-- Hand-written: browsing with sorts, filters and facet counts, and suggestions as a shopper types
-- (issue 30; see docs/decisions/0007 for the projections this extends). Like the other projections
-- these hold order and what the filters compare; a page's price, stock and availability are read
-- live, and a row shown always passes the price and stock filters as they are now.

-- Every available copy with what the sorts and filters of a category page read. One index per sort,
-- led by the category, so a page is an index range in its order whatever the filters; sample_key is
-- a fixed pseudo-random order, whose first rows are the sample facet counts are estimated from at scale.
CREATE MATERIALIZED VIEW browse_listing AS
SELECT c.id AS copy_id, b.type_id, b.author_id, c.price, c.quantity > 0 AS in_stock,
       CASE WHEN b.ratings_count > 0 THEN round(b.ratings_sum::numeric / b.ratings_count, 2) ELSE 0 END AS rating,
       b.ratings_count, c.units_sold, b.published_at,
       ('x' || substr(md5(c.id::text), 1, 8))::bit(32)::int AS sample_key
FROM books b JOIN book_copies c ON c.book_id = b.id AND c.is_available;
CREATE UNIQUE INDEX browse_listing_copy ON browse_listing (copy_id);
CREATE INDEX browse_listing_popular ON browse_listing (type_id, ratings_count DESC, copy_id);
CREATE INDEX browse_listing_bestselling ON browse_listing (type_id, units_sold DESC, copy_id);
CREATE INDEX browse_listing_top_rated ON browse_listing (type_id, rating DESC, ratings_count DESC, copy_id);
CREATE INDEX browse_listing_newest ON browse_listing (type_id, published_at DESC NULLS LAST, copy_id);
CREATE INDEX browse_listing_price_asc ON browse_listing (type_id, price, copy_id);
CREATE INDEX browse_listing_price_desc ON browse_listing (type_id, price DESC, copy_id);
CREATE INDEX browse_listing_sample ON browse_listing (type_id, sample_key, copy_id);
CREATE INDEX browse_listing_author ON browse_listing (author_id, type_id, sample_key, copy_id);

-- How many copies each category has on sale, and each author in it (author_id 0: the whole
-- category): whether a listing's counts can be exact (all of its copies fit in the sample), and what
-- a sample's counts scale to when not.
CREATE MATERIALIZED VIEW browse_counts AS
SELECT type_id, coalesce(author_id, 0) AS author_id, count(*)::int AS n
FROM browse_listing GROUP BY GROUPING SETS ((type_id), (type_id, author_id));
CREATE UNIQUE INDEX browse_counts_key ON browse_counts (type_id, author_id);

-- Suggestions: each book on sale (its first copy) by its search text, and each author with books on
-- sale by every word-start of their name ("king" finds Stephen King), weighted by ratings. The
-- indexes on each kind's first 2, 3 and 5 letters of a key, in weight order, give the heaviest
-- matches of a prefix without ranking all of them.
CREATE MATERIALIZED VIEW search_suggestions AS
WITH keys AS (
  SELECT 'book'::text AS kind, min(c.id) AS id, b.search_text AS key, b.ratings_count::bigint AS weight
  FROM books b JOIN book_copies c ON c.book_id = b.id AND c.is_available
  GROUP BY b.id
  UNION ALL
  SELECT 'author', a.id, array_to_string(w.words[i:], ' '), sum(b.ratings_count)::bigint
  FROM authors a
  JOIN books b ON b.author_id = a.id AND EXISTS (SELECT 1 FROM book_copies c WHERE c.book_id = b.id AND c.is_available)
  CROSS JOIN LATERAL (SELECT string_to_array(trim(regexp_replace(lower(a.full_name), '[^[:alnum:]]+', ' ', 'g')), ' ') AS words) w
  CROSS JOIN LATERAL generate_subscripts(w.words, 1) AS i
  GROUP BY a.id, w.words, i
)
SELECT kind, id, key, weight FROM keys WHERE key <> '';
CREATE UNIQUE INDEX search_suggestions_key ON search_suggestions (kind, id, key);
CREATE INDEX search_suggestions_2 ON search_suggestions (kind, left(key, 2), weight DESC, id);
CREATE INDEX search_suggestions_3 ON search_suggestions (kind, left(key, 3), weight DESC, id);
CREATE INDEX search_suggestions_5 ON search_suggestions (kind, left(key, 5), weight DESC, id);

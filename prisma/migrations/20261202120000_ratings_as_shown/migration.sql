-- A category page filters and sorts by a book's rating as the storefront shows it, to one decimal
-- (spec: ratings with 1 decimal), no longer to two: a book shown at 4.0 (an average of 3.96) is
-- among "4 stars and up", and Top rated orders books as their cards read. The view is the same but
-- for the rounding; the rows already caught up are rewritten alike here: one statement over the whole
-- listing, which at a million books rewrites most of its rows, so run it in a maintenance window, as
-- the migration that made the table (browse_listing_kept_by_changes) says of its own fill.
CREATE OR REPLACE VIEW browse_listing_source AS
SELECT c.id AS copy_id, b.type_id, b.author_id, c.price, c.quantity > 0 AS in_stock,
       CASE WHEN b.ratings_count > 0 THEN round(b.ratings_sum::numeric / b.ratings_count, 1) ELSE 0 END AS rating,
       b.ratings_count, c.units_sold, b.published_at,
       ('x' || substr(md5(c.id::text), 1, 8))::bit(32)::int AS sample_key
FROM books b JOIN book_copies c ON c.book_id = b.id AND c.is_available;

-- From the ratings themselves: rounding the two decimals kept would round twice (3.949 kept as 3.95
-- would become 4.0, not 3.9).
-- Only the rows whose rating moves: a whole-number average, or none, is the same either way, and each
-- row rewritten adds to all eight of the table's indexes (rating is in one, so no update is in place).
UPDATE browse_listing l
SET rating = s.rating
FROM (SELECT c.id, CASE WHEN b.ratings_count > 0 THEN round(b.ratings_sum::numeric / b.ratings_count, 1) ELSE 0 END AS rating
      FROM book_copies c JOIN books b ON b.id = c.book_id) s
WHERE s.id = l.copy_id AND l.rating IS DISTINCT FROM s.rating;

ANALYZE browse_listing;

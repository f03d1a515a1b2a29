-- A category page filters and sorts by a book's rating as the storefront shows it, to one decimal
-- (spec: ratings with 1 decimal), no longer to two: a book shown at 4.0 (an average of 3.96) is
-- among "4 stars and up", and Top rated orders books as their cards read. The view is the same but
-- for the rounding; the rows already caught up are rewritten alike here (a statement over the whole
-- listing: seconds at a million books).
CREATE OR REPLACE VIEW browse_listing_source AS
SELECT c.id AS copy_id, b.type_id, b.author_id, c.price, c.quantity > 0 AS in_stock,
       CASE WHEN b.ratings_count > 0 THEN round(b.ratings_sum::numeric / b.ratings_count, 1) ELSE 0 END AS rating,
       b.ratings_count, c.units_sold, b.published_at,
       ('x' || substr(md5(c.id::text), 1, 8))::bit(32)::int AS sample_key
FROM books b JOIN book_copies c ON c.book_id = b.id AND c.is_available;

-- From the ratings themselves: rounding the two decimals kept would round twice (3.949 kept as 3.95
-- would become 4.0, not 3.9).
UPDATE browse_listing l
SET rating = CASE WHEN b.ratings_count > 0 THEN round(b.ratings_sum::numeric / b.ratings_count, 1) ELSE 0 END
FROM book_copies c JOIN books b ON b.id = c.book_id
WHERE c.id = l.copy_id;

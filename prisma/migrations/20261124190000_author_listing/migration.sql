-- Hand-written: author pages from positions, as category pages are (docs/decisions/0007). At a
-- million books the busiest author has thousands on sale, and counting and ordering them on each
-- request read every one of them from the table (300-600 ms). Each available copy's position among
-- its author's books, most-rated first, makes the count the last position and page N an index range.
-- Like category_listing it holds ids and order only; availability, price and stock are read live.
CREATE MATERIALIZED VIEW author_listing AS
SELECT c.id AS copy_id, b.author_id,
       row_number() OVER (PARTITION BY b.author_id ORDER BY b.ratings_count DESC, c.id)::int AS position
FROM books b JOIN book_copies c ON c.book_id = b.id AND c.is_available;
CREATE UNIQUE INDEX author_listing_author_position ON author_listing (author_id, position);
CREATE UNIQUE INDEX author_listing_copy ON author_listing (copy_id);

-- browse_listing (decision 15) becomes a table kept from the copies that changed (issue 32). As a
-- materialized view every refresh rebuilt it whole and compared it with the old one: 17-22 s of the
-- database at a million books, after any sale, price or stock change, and the largest single cost of
-- the day's mix at that size. Now statement triggers on book_copies and books note, in the writer's
-- transaction, each copy whose row may differ, and browse_listing_catch_up() (run by the projections'
-- scheduler where the refresh ran) rewrites those rows alone from browse_listing_source, the view's
-- definition unchanged. The rows are those a rebuild would give (api/test/browse-listing-kept.test.ts).
-- Written for a maintenance window: books and copies take no writes, and category pages no reads,
-- until it commits (the fill and eight indexes: tens of seconds at a million books).

-- browse_counts is counted from browse_listing: dropped with it, and made again the same below.
DROP MATERIALIZED VIEW browse_counts;
DROP MATERIALIZED VIEW browse_listing;

-- Every copy on sale with what the sorts and filters of a category page compare, as it is now.
CREATE VIEW browse_listing_source AS
SELECT c.id AS copy_id, b.type_id, b.author_id, c.price, c.quantity > 0 AS in_stock,
       CASE WHEN b.ratings_count > 0 THEN round(b.ratings_sum::numeric / b.ratings_count, 2) ELSE 0 END AS rating,
       b.ratings_count, c.units_sold, b.published_at,
       ('x' || substr(md5(c.id::text), 1, 8))::bit(32)::int AS sample_key
FROM books b JOIN book_copies c ON c.book_id = b.id AND c.is_available;

CREATE TABLE "browse_listing" (
    "copy_id" INTEGER NOT NULL,
    "type_id" INTEGER NOT NULL,
    "author_id" INTEGER NOT NULL,
    "price" DECIMAL(10,2) NOT NULL,
    "in_stock" BOOLEAN NOT NULL,
    "rating" DECIMAL NOT NULL,
    "ratings_count" INTEGER NOT NULL,
    "units_sold" INTEGER NOT NULL,
    "published_at" DATE,
    "sample_key" INTEGER NOT NULL,

    CONSTRAINT "browse_listing_pkey" PRIMARY KEY ("copy_id")
);

-- What changed since the last catch-up: a copy, or a book (standing for its copies as the catch-up
-- finds them), a row per writing statement and copy or book. Appended without a key to wait on, so
-- two checkouts never wait on each other here, and emptied by each catch-up.
CREATE TABLE "browse_listing_changes" (
    "id" BIGSERIAL NOT NULL,
    "copy_id" INTEGER,
    "book_id" INTEGER,

    CONSTRAINT "browse_listing_changes_pkey" PRIMARY KEY ("id")
);

-- Filled with the tables locked against writers until the triggers below exist (the migration is one
-- transaction): a write that began before and committed after the fill would be in neither.
LOCK TABLE books, book_copies IN SHARE ROW EXCLUSIVE MODE;
INSERT INTO browse_listing SELECT * FROM browse_listing_source;

-- One index per sort, led by the category, as before.
CREATE INDEX browse_listing_popular ON browse_listing (type_id, ratings_count DESC, copy_id);
CREATE INDEX browse_listing_bestselling ON browse_listing (type_id, units_sold DESC, copy_id);
CREATE INDEX browse_listing_top_rated ON browse_listing (type_id, rating DESC, ratings_count DESC, copy_id);
CREATE INDEX browse_listing_newest ON browse_listing (type_id, published_at DESC NULLS LAST, copy_id);
CREATE INDEX browse_listing_price_asc ON browse_listing (type_id, price, copy_id);
CREATE INDEX browse_listing_price_desc ON browse_listing (type_id, price DESC, copy_id);
CREATE INDEX browse_listing_sample ON browse_listing (type_id, sample_key, copy_id);
CREATE INDEX browse_listing_author ON browse_listing (author_id, type_id, sample_key, copy_id);
ANALYZE browse_listing;

CREATE MATERIALIZED VIEW browse_counts AS
SELECT type_id, coalesce(author_id, 0) AS author_id, count(*)::int AS n
FROM browse_listing GROUP BY GROUPING SETS ((type_id), (type_id, author_id));
CREATE UNIQUE INDEX browse_counts_key ON browse_counts (type_id, author_id);

-- A copy added on sale, or taken away while on sale. `copies` is the statement's new or old rows.
CREATE FUNCTION browse_listing_note_copies() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO browse_listing_changes (copy_id) SELECT id FROM copies WHERE is_available;
  RETURN NULL;
END $$;
CREATE TRIGGER book_copies_browse_listing_added AFTER INSERT ON book_copies
  REFERENCING NEW TABLE AS copies FOR EACH STATEMENT EXECUTE FUNCTION browse_listing_note_copies();
CREATE TRIGGER book_copies_browse_listing_removed AFTER DELETE ON book_copies
  REFERENCING OLD TABLE AS copies FOR EACH STATEMENT EXECUTE FUNCTION browse_listing_note_copies();

-- A copy whose listed values changed: a sale (units sold), a price, running out or back in stock
-- (a restock of a copy in stock changes nothing listed), put on or off sale, or moved to another
-- book. Rows are paired by id, which never changes (book_copies_versioned_stock refuses it).
CREATE FUNCTION browse_listing_note_changed_copies() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO browse_listing_changes (copy_id)
  SELECT n.id FROM copies_before o JOIN copies_after n ON n.id = o.id
  WHERE (n.is_available OR o.is_available)
    AND (n.book_id, n.price, n.quantity > 0, n.units_sold, n.is_available)
        IS DISTINCT FROM (o.book_id, o.price, o.quantity > 0, o.units_sold, o.is_available);
  RETURN NULL;
END $$;
CREATE TRIGGER book_copies_browse_listing_changed AFTER UPDATE ON book_copies
  REFERENCING OLD TABLE AS copies_before NEW TABLE AS copies_after
  FOR EACH STATEMENT EXECUTE FUNCTION browse_listing_note_changed_copies();

-- A book whose listed values changed (a review moves its ratings; an edit its category, author or
-- date). The book is noted, not its copies: which copies it has is read by the catch-up, as they are
-- then. Read here, it would miss a copy put on sale or moved to the book by a writer that has not yet
-- committed, and a catch-up between the two commits would keep that copy with the book's old values.
-- A book with copies cannot be deleted, and a new one has none.
CREATE FUNCTION browse_listing_note_changed_books() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO browse_listing_changes (book_id)
  SELECT n.id FROM books_before o JOIN books_after n ON n.id = o.id
  WHERE (n.type_id, n.author_id, n.ratings_sum, n.ratings_count, n.published_at)
        IS DISTINCT FROM (o.type_id, o.author_id, o.ratings_sum, o.ratings_count, o.published_at);
  RETURN NULL;
END $$;
CREATE TRIGGER books_browse_listing_changed AFTER UPDATE ON books
  REFERENCING OLD TABLE AS books_before NEW TABLE AS books_after
  FOR EACH STATEMENT EXECUTE FUNCTION browse_listing_note_changed_books();

-- Emptying the copies (the tests, a TRUNCATE of books CASCADE) empties the listing with them, and
-- leaves a note of neither a copy nor a book: the next catch-up then says copies left (browse_counts).
CREATE FUNCTION browse_listing_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE browse_listing, browse_listing_changes;
  INSERT INTO browse_listing_changes DEFAULT VALUES;
  RETURN NULL;
END $$;
CREATE TRIGGER book_copies_browse_listing_truncated AFTER TRUNCATE ON book_copies
  FOR EACH STATEMENT EXECUTE FUNCTION browse_listing_truncated();

-- Takes the notes and rewrites the rows of their copies from browse_listing_source: the noted copies,
-- and every copy the noted books have when the rewrite reads them. A note commits with the change it
-- notes, so the rewrite, a statement after the notes are taken, reads every change taken; a note
-- committed meanwhile stays for the next catch-up. The ids go as arrays planned anew on each call
-- (force_custom_plan), so the planner knows how few they are and reads them by their keys, never the
-- whole catalog. A row whose values are the same is not rewritten. Says how many rows it wrote or
-- removed, and whether a copy came on sale, left it or changed category or author (browse_counts,
-- counted from this table, is then stale too). It takes at most `most` notes, the oldest: a backlog
-- (a bulk load outside the shop) is caught up in turns that each end well within a refresh's time
-- limit (100,000 notes: about 15 s at a million books), and `more` says whether notes were left.
CREATE FUNCTION browse_listing_catch_up(most integer DEFAULT 100000, OUT rewritten bigint, OUT membership_changed boolean, OUT more boolean)
LANGUAGE plpgsql SET plan_cache_mode = force_custom_plan AS $$
DECLARE
  noted_copies integer[];
  noted_books integer[];
  emptied boolean;
BEGIN
  WITH taken AS (
    DELETE FROM browse_listing_changes
    WHERE id IN (SELECT id FROM browse_listing_changes ORDER BY id LIMIT most)
    RETURNING copy_id, book_id)
  SELECT coalesce(array_agg(DISTINCT copy_id) FILTER (WHERE copy_id IS NOT NULL), '{}'),
         coalesce(array_agg(DISTINCT book_id) FILTER (WHERE book_id IS NOT NULL), '{}'),
         coalesce(bool_or(copy_id IS NULL AND book_id IS NULL), false),
         count(*) = most
  INTO noted_copies, noted_books, emptied, more FROM taken;
  WITH noted AS MATERIALIZED (
    SELECT n.copy_id FROM unnest(noted_copies) AS n(copy_id)
    UNION
    SELECT c.id FROM unnest(noted_books) AS b(book_id) JOIN book_copies c ON c.book_id = b.book_id),
  fresh AS MATERIALIZED (SELECT s.* FROM noted JOIN browse_listing_source s USING (copy_id)),
  held AS MATERIALIZED (SELECT l.copy_id, l.type_id, l.author_id FROM noted JOIN browse_listing l USING (copy_id)),
  gone AS (
    DELETE FROM browse_listing l USING held h
    WHERE l.copy_id = h.copy_id AND NOT EXISTS (SELECT FROM fresh f WHERE f.copy_id = h.copy_id)
    RETURNING 1),
  kept AS (
    INSERT INTO browse_listing SELECT * FROM fresh
    ON CONFLICT (copy_id) DO UPDATE
    SET type_id = excluded.type_id, author_id = excluded.author_id, price = excluded.price,
        in_stock = excluded.in_stock, rating = excluded.rating, ratings_count = excluded.ratings_count,
        units_sold = excluded.units_sold, published_at = excluded.published_at, sample_key = excluded.sample_key
    WHERE (browse_listing.*) IS DISTINCT FROM (excluded.*)
    RETURNING 1)
  SELECT (SELECT count(*) FROM gone) + (SELECT count(*) FROM kept),
         EXISTS (SELECT FROM fresh f FULL JOIN held h USING (copy_id)
                 WHERE f.copy_id IS NULL OR h.copy_id IS NULL OR (f.type_id, f.author_id) <> (h.type_id, h.author_id))
  INTO rewritten, membership_changed;
  -- The copies emptied by a TRUNCATE were rows of the listing, removed by its trigger.
  IF emptied THEN
    rewritten := rewritten + 1;
    membership_changed := true;
  END IF;
END $$;

-- The dashboard counted every book and every copy on each view: 120 ms of its 130 at a million books
-- (issue 32's mix, where a staff call over 100 ms fails the step). The counts are now kept the way
-- the order counts are (sales_daily): by triggers, in the same transaction as the change. A single
-- counter row would make every two transactions that add books wait on each other (an import holds
-- its transaction for minutes), so each statement appends its own change instead, and the hourly
-- job (plugins/retention.ts) folds the rows into one.
CREATE TABLE "catalog_totals" (
    "id" BIGSERIAL NOT NULL,
    "books" BIGINT NOT NULL DEFAULT 0,
    "book_copies" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "catalog_totals_pkey" PRIMARY KEY ("id")
);

-- Counted with the tables locked against writers until the triggers below exist (the migration is one
-- transaction): a write that began before and committed after the count would be in neither.
LOCK TABLE books, book_copies IN SHARE ROW EXCLUSIVE MODE;
INSERT INTO catalog_totals (books, book_copies) SELECT (SELECT count(*) FROM books), (SELECT count(*) FROM book_copies);

-- One function for both tables and both directions: `changed` is the statement's inserted rows or its
-- deleted ones (each trigger names its transition table so).
CREATE FUNCTION catalog_totals_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  moved bigint;
BEGIN
  SELECT CASE WHEN TG_OP = 'INSERT' THEN count(*) ELSE -count(*) END INTO moved FROM changed;
  IF moved <> 0 THEN
    IF TG_TABLE_NAME = 'books' THEN
      INSERT INTO catalog_totals (books) VALUES (moved);
    ELSE
      INSERT INTO catalog_totals (book_copies) VALUES (moved);
    END IF;
  END IF;
  RETURN NULL;
END $$;

-- TRUNCATE fires no row or transition trigger. It holds the table's exclusive lock, so no other
-- transaction is adding rows meanwhile, and what the rows add up to is what it took away, as long as
-- the sum sees every change committed before the lock: at READ COMMITTED it does; a REPEATABLE READ
-- snapshot taken earlier would miss some, so there the truncate is refused.
CREATE FUNCTION catalog_totals_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('transaction_isolation') <> 'read committed' THEN
    RAISE EXCEPTION 'TRUNCATE % runs at READ COMMITTED only: the catalog''s counts (catalog_totals) are taken from what is committed', TG_TABLE_NAME;
  END IF;
  IF TG_TABLE_NAME = 'books' THEN
    INSERT INTO catalog_totals (books) SELECT -sum(books) FROM catalog_totals HAVING sum(books) <> 0;
  ELSE
    INSERT INTO catalog_totals (book_copies) SELECT -sum(book_copies) FROM catalog_totals HAVING sum(book_copies) <> 0;
  END IF;
  RETURN NULL;
END $$;

-- books_totals_added, books_totals_removed, books_totals_truncated, and the same three on book_copies.
DO $$
DECLARE
  counted_table text;
BEGIN
  FOREACH counted_table IN ARRAY ARRAY['books', 'book_copies'] LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS changed '
                   'FOR EACH STATEMENT EXECUTE FUNCTION catalog_totals_changed()', counted_table || '_totals_added', counted_table);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS changed '
                   'FOR EACH STATEMENT EXECUTE FUNCTION catalog_totals_changed()', counted_table || '_totals_removed', counted_table);
    EXECUTE format('CREATE TRIGGER %I AFTER TRUNCATE ON %I '
                   'FOR EACH STATEMENT EXECUTE FUNCTION catalog_totals_truncated()', counted_table || '_totals_truncated', counted_table);
  END LOOP;
END $$;

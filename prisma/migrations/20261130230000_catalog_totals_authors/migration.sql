-- The Authors table counted every author on each of its pages (a count(*) reads every row: the
-- authors grow with the catalog). Authors are now kept in catalog_totals beside books and copies, by
-- the same statement triggers (decision 17).
ALTER TABLE "catalog_totals" ADD COLUMN "authors" BIGINT NOT NULL DEFAULT 0;

-- Counted with the table locked against writers until its triggers exist (the migration is one
-- transaction), as the first counts were.
LOCK TABLE authors IN SHARE ROW EXCLUSIVE MODE;
INSERT INTO catalog_totals (authors) SELECT count(*) FROM authors;

CREATE OR REPLACE FUNCTION catalog_totals_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  moved bigint;
BEGIN
  SELECT CASE WHEN TG_OP = 'INSERT' THEN count(*) ELSE -count(*) END INTO moved FROM changed;
  IF moved <> 0 THEN
    IF TG_TABLE_NAME = 'books' THEN
      INSERT INTO catalog_totals (books) VALUES (moved);
    ELSIF TG_TABLE_NAME = 'authors' THEN
      INSERT INTO catalog_totals (authors) VALUES (moved);
    ELSE
      INSERT INTO catalog_totals (book_copies) VALUES (moved);
    END IF;
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION catalog_totals_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('transaction_isolation') <> 'read committed' THEN
    RAISE EXCEPTION 'TRUNCATE % runs at READ COMMITTED only: the catalog''s counts (catalog_totals) are taken from what is committed', TG_TABLE_NAME;
  END IF;
  IF TG_TABLE_NAME = 'books' THEN
    INSERT INTO catalog_totals (books) SELECT -sum(books) FROM catalog_totals HAVING sum(books) <> 0;
  ELSIF TG_TABLE_NAME = 'authors' THEN
    INSERT INTO catalog_totals (authors) SELECT -sum(authors) FROM catalog_totals HAVING sum(authors) <> 0;
  ELSE
    INSERT INTO catalog_totals (book_copies) SELECT -sum(book_copies) FROM catalog_totals HAVING sum(book_copies) <> 0;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER authors_totals_added AFTER INSERT ON authors REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION catalog_totals_changed();
CREATE TRIGGER authors_totals_removed AFTER DELETE ON authors REFERENCING OLD TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION catalog_totals_changed();
CREATE TRIGGER authors_totals_truncated AFTER TRUNCATE ON authors
  FOR EACH STATEMENT EXECUTE FUNCTION catalog_totals_truncated();

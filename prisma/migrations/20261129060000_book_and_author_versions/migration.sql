-- A book's and an author's version, raised whenever what the back-office edits changes: a save sends
-- the version it read (If-Match), so one employee's save can no longer silently undo another's
-- (decision record 12, amended). Only the edited fields raise it: the ratings a review moves, and the
-- search text an author's rename rewrites, are the shop's own and must not make an open edit stale.
ALTER TABLE "books" ADD COLUMN "version" INTEGER NOT NULL DEFAULT 1;
ALTER TABLE "authors" ADD COLUMN "version" INTEGER NOT NULL DEFAULT 1;

CREATE FUNCTION raise_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.version := OLD.version + 1;
  RETURN NEW;
END $$;

-- A trigger, so no writer (a save, a script, a statement by hand) can change a row and leave its version.
CREATE TRIGGER books_version BEFORE UPDATE ON books FOR EACH ROW
  WHEN ((OLD.name, OLD.pages_number, OLD.published_at, OLD.author_id, OLD.type_id)
        IS DISTINCT FROM (NEW.name, NEW.pages_number, NEW.published_at, NEW.author_id, NEW.type_id))
  EXECUTE FUNCTION raise_version();
CREATE TRIGGER authors_version BEFORE UPDATE ON authors FOR EACH ROW
  WHEN (OLD.full_name IS DISTINCT FROM NEW.full_name)
  EXECUTE FUNCTION raise_version();

-- An employee's version, raised whenever their information changes (what the Account screen edits):
-- a save sends the version it read (If-Match), so a second tab's save, opened before another change,
-- can no longer silently write the old phone or address back (decision record 12, amended). A role,
-- a password or a second factor is not the Account form's, and does not make an open form stale.
ALTER TABLE "employees" ADD COLUMN "version" INTEGER NOT NULL DEFAULT 1;

CREATE TRIGGER employees_version BEFORE UPDATE ON employees FOR EACH ROW
  WHEN ((OLD.first_name, OLD.last_name, OLD.gender, OLD.birth_date, OLD.email, OLD.phone_number, OLD.address)
        IS DISTINCT FROM (NEW.first_name, NEW.last_name, NEW.gender, NEW.birth_date, NEW.email, NEW.phone_number, NEW.address))
  EXECUTE FUNCTION raise_version();

-- A write of many copies (an import's 1,000 rows) ran three PL/pgSQL functions per row, and one
-- more statement per row for the stock ledger; a checkout ran them for each copy it sold (issue 32:
-- the import's write was the costliest statement of the day's mix). The rules are the same; what
-- changes is where they are checked.

-- The ledger is written once per statement from the statement's old and new rows, as the opening
-- stock of new copies already is. The version still rises row by row, before the row is written. The
-- statement's rows are paired by id, so a copy's id may not change (nothing in the shop changes it).
CREATE OR REPLACE FUNCTION book_copies_versioned_stock() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.id <> OLD.id THEN
    RAISE EXCEPTION 'a copy''s id does not change: its stock ledger is kept under it';
  END IF;
  NEW.version := OLD.version + 1;
  RETURN NEW;
END $$;

CREATE FUNCTION book_copies_stock_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO stock_movements (copy_id, change, stock_after, version, reason, actor, reference)
  SELECT n.id, n.quantity - o.quantity, n.quantity, n.version, stock_movement_reason(n.units_sold - o.units_sold),
         nullif(current_setting('bookshop.audit_actor', true), ''), nullif(current_setting('bookshop.stock_reference', true), '')
  FROM moved_from o JOIN moved_to n ON n.id = o.id
  WHERE n.quantity <> o.quantity
  ORDER BY n.id;
  RETURN NULL;
END $$;
CREATE TRIGGER book_copies_stock_moved AFTER UPDATE ON book_copies
  REFERENCING OLD TABLE AS moved_from NEW TABLE AS moved_to
  FOR EACH STATEMENT EXECUTE FUNCTION book_copies_stock_moved();

-- Only a copy coming back in stock can tell anyone: the trigger's condition says so, and no function
-- runs for the others (every sale, every price).
DROP TRIGGER book_copies_back_in_stock ON book_copies;
CREATE TRIGGER book_copies_back_in_stock
  AFTER UPDATE OF quantity, is_available ON book_copies
  FOR EACH ROW WHEN (NEW.is_available AND NEW.quantity > 0 AND NOT (OLD.is_available AND OLD.quantity > 0))
  EXECUTE FUNCTION book_copies_back_in_stock();

-- Only a write by a named back-office employee is audited (audit_backoffice_write returns at once for
-- any other): the triggers say so, and a checkout's or a shopper's writes run no audit function.
DO $$
DECLARE
  audited record;
BEGIN
  FOR audited IN
    SELECT * FROM (VALUES ('authors', 'Author'), ('books', 'Book'), ('book_copies', 'BookCopy'), ('orders', 'Order'),
                          ('employees', 'Employee'), ('contact_messages', 'ContactMessage'), ('book_reviews', 'BookReview'),
                          ('shop_settings', 'ShopSettings')) AS t(tab, entity)
  LOOP
    EXECUTE format('DROP TRIGGER %I ON %I', audited.tab || '_audit', audited.tab);
    EXECUTE format(
      'CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE ON %I FOR EACH ROW '
      'WHEN (current_setting(''bookshop.audit_actor'', true) <> '''') EXECUTE FUNCTION audit_backoffice_write(%L)',
      audited.tab || '_audit', audited.tab, audited.entity);
  END LOOP;
END $$;

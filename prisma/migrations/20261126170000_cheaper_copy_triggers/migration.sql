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
DROP TRIGGER authors_audit ON authors;
DROP TRIGGER books_audit ON books;
DROP TRIGGER book_copies_audit ON book_copies;
DROP TRIGGER orders_audit ON orders;
DROP TRIGGER employees_audit ON employees;
DROP TRIGGER contact_messages_audit ON contact_messages;
DROP TRIGGER book_reviews_audit ON book_reviews;
DROP TRIGGER shop_settings_audit ON shop_settings;
CREATE TRIGGER authors_audit AFTER INSERT OR UPDATE OR DELETE ON authors FOR EACH ROW
  WHEN (current_setting('bookshop.audit_actor', true) <> '') EXECUTE FUNCTION audit_backoffice_write('Author');
CREATE TRIGGER books_audit AFTER INSERT OR UPDATE OR DELETE ON books FOR EACH ROW
  WHEN (current_setting('bookshop.audit_actor', true) <> '') EXECUTE FUNCTION audit_backoffice_write('Book');
CREATE TRIGGER book_copies_audit AFTER INSERT OR UPDATE OR DELETE ON book_copies FOR EACH ROW
  WHEN (current_setting('bookshop.audit_actor', true) <> '') EXECUTE FUNCTION audit_backoffice_write('BookCopy');
CREATE TRIGGER orders_audit AFTER INSERT OR UPDATE OR DELETE ON orders FOR EACH ROW
  WHEN (current_setting('bookshop.audit_actor', true) <> '') EXECUTE FUNCTION audit_backoffice_write('Order');
CREATE TRIGGER employees_audit AFTER INSERT OR UPDATE OR DELETE ON employees FOR EACH ROW
  WHEN (current_setting('bookshop.audit_actor', true) <> '') EXECUTE FUNCTION audit_backoffice_write('Employee');
CREATE TRIGGER contact_messages_audit AFTER INSERT OR UPDATE OR DELETE ON contact_messages FOR EACH ROW
  WHEN (current_setting('bookshop.audit_actor', true) <> '') EXECUTE FUNCTION audit_backoffice_write('ContactMessage');
CREATE TRIGGER book_reviews_audit AFTER INSERT OR UPDATE OR DELETE ON book_reviews FOR EACH ROW
  WHEN (current_setting('bookshop.audit_actor', true) <> '') EXECUTE FUNCTION audit_backoffice_write('BookReview');
CREATE TRIGGER shop_settings_audit AFTER INSERT OR UPDATE OR DELETE ON shop_settings FOR EACH ROW
  WHEN (current_setting('bookshop.audit_actor', true) <> '') EXECUTE FUNCTION audit_backoffice_write('ShopSettings');

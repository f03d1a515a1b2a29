-- Units sold by category (sales_daily_categories) count each copy's sales under its book's category
-- now: a sale adds them under the category of the moment, and a cancellation takes them back from the
-- category of its own moment. When a book changed category between the two (or a copy moved to a
-- book of another category), the cancellation took the units from the new category while the old one
-- kept them: one went below what it sold, the other above. Now a change of a book's category, or of
-- the book a copy belongs to, moves that copy's sold units of every day from the old category to the
-- new one, read from sales_daily_copies (a copy and a day a row, kept by the same triggers), so the
-- categories stay the copies' units summed by their books' categories, whatever the order of events.

-- Moves the sold units of `copy_ids` on every day from one category to the other.
CREATE FUNCTION sales_daily_move_category(copy_ids integer[], from_type integer, to_type integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- A checkout or a cancellation of these copies locks them first and counts its units under the
  -- category it reads: waiting for those in flight, and holding back new ones until this commits,
  -- makes the units read below include every sale counted under the old category, and no later one.
  PERFORM 1 FROM book_copies WHERE id = ANY (copy_ids) ORDER BY id FOR SHARE;
  WITH moved AS (
    SELECT day, sum(units)::int AS units FROM sales_daily_copies
    WHERE book_copy_id = ANY (copy_ids) GROUP BY day HAVING sum(units) <> 0
  ), taken AS (
    INSERT INTO sales_daily_categories (day, type_id, units) SELECT day, from_type, -units FROM moved
    ON CONFLICT (day, type_id) DO UPDATE SET units = sales_daily_categories.units + EXCLUDED.units
  )
  INSERT INTO sales_daily_categories (day, type_id, units) SELECT day, to_type, units FROM moved
  ON CONFLICT (day, type_id) DO UPDATE SET units = sales_daily_categories.units + EXCLUDED.units;
END $$;

CREATE FUNCTION sales_daily_follow_book_category() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM sales_daily_move_category(ARRAY(SELECT id FROM book_copies WHERE book_id = NEW.id), OLD.type_id, NEW.type_id);
  RETURN NULL;
END $$;

CREATE FUNCTION sales_daily_follow_copy_book() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  from_type integer := (SELECT type_id FROM books WHERE id = OLD.book_id);
  to_type integer := (SELECT type_id FROM books WHERE id = NEW.book_id);
BEGIN
  IF from_type IS DISTINCT FROM to_type THEN
    PERFORM sales_daily_move_category(ARRAY[NEW.id], from_type, to_type);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER books_sales_daily_category AFTER UPDATE OF type_id ON books FOR EACH ROW
  WHEN (OLD.type_id IS DISTINCT FROM NEW.type_id) EXECUTE FUNCTION sales_daily_follow_book_category();
CREATE TRIGGER book_copies_sales_daily_book AFTER UPDATE OF book_id ON book_copies FOR EACH ROW
  WHEN (OLD.book_id IS DISTINCT FROM NEW.book_id) EXECUTE FUNCTION sales_daily_follow_copy_book();

-- What earlier recategorisations left uneven: the categories again as the copies' units by their
-- books' categories now.
DELETE FROM sales_daily_categories;
INSERT INTO sales_daily_categories (day, type_id, units)
SELECT s.day, b.type_id, sum(s.units)
FROM sales_daily_copies s JOIN book_copies c ON c.id = s.book_copy_id JOIN books b ON b.id = c.book_id
GROUP BY 1, 2;

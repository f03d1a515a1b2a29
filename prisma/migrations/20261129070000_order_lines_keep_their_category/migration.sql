-- Units sold by category (sales_daily_categories) counted a line under its book's category of the
-- moment: a sale added its units under the category then, and a cancellation took them back from the
-- category at the cancel. When the book changed category in between (or its copy moved to another
-- book), the old category kept units the shop no longer sold and the new one lost units it never
-- sold. Each line now keeps the category it was sold in, and every count adds and takes it there.

-- A working copy migrated while this change was in progress ran an earlier draft that moved the sold
-- units on a category change instead: nothing of it may stay.
DROP TRIGGER IF EXISTS books_sales_daily_category ON books;
DROP TRIGGER IF EXISTS book_copies_sales_daily_book ON book_copies;
DROP FUNCTION IF EXISTS sales_daily_follow_book_category(), sales_daily_follow_copy_book(), sales_daily_move_category(integer[], integer, integer);

-- Lines sold before this migration take their book's category at the migration: which category a
-- recategorised book had when its older lines were sold is not recorded anywhere.
ALTER TABLE "order_items" ADD COLUMN "type_id" INTEGER;
UPDATE order_items oi SET type_id = b.type_id FROM book_copies c JOIN books b ON b.id = c.book_id WHERE c.id = oi.book_copy_id;
ALTER TABLE "order_items" ALTER COLUMN "type_id" SET NOT NULL;

-- Checkout writes the category with the line; a line written without one (a script, a test's rows)
-- takes its book's category now.
CREATE FUNCTION order_items_category() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.type_id := (SELECT b.type_id FROM book_copies c JOIN books b ON b.id = c.book_id WHERE c.id = NEW.book_copy_id);
  RETURN NEW;
END $$;
CREATE TRIGGER order_items_category BEFORE INSERT ON order_items FOR EACH ROW
  WHEN (NEW.type_id IS NULL) EXECUTE FUNCTION order_items_category();

CREATE OR REPLACE FUNCTION sales_daily_add_lines(for_order integer, on_day date, sign integer) RETURNS void LANGUAGE sql AS $$
  INSERT INTO sales_daily_categories (day, type_id, units)
  SELECT on_day, oi.type_id, sign * sum(oi.quantity)
  FROM order_items oi
  WHERE oi.order_id = for_order
  GROUP BY oi.type_id
  ON CONFLICT (day, type_id) DO UPDATE SET units = sales_daily_categories.units + EXCLUDED.units;
  INSERT INTO sales_daily_copies (book_copy_id, day, units)
  SELECT oi.book_copy_id, on_day, sign * sum(oi.quantity)
  FROM order_items oi
  WHERE oi.order_id = for_order
  GROUP BY oi.book_copy_id
  ON CONFLICT (book_copy_id, day) DO UPDATE SET units = sales_daily_copies.units + EXCLUDED.units;
$$;

-- Adds `sold_units` of a copy, sold in an order under `sold_type`, to its day's category and copy counts (when the order is sold).
DROP FUNCTION sales_daily_add_line(integer, integer, integer);
CREATE FUNCTION sales_daily_add_line(for_order integer, sold_copy integer, sold_type integer, sold_units integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  o orders;
BEGIN
  SELECT * INTO o FROM orders WHERE id = for_order;
  -- No order: the line goes with its order, whose own trigger took it away already.
  IF NOT FOUND OR NOT order_is_sold(o.status) THEN
    RETURN;
  END IF;
  INSERT INTO sales_daily_categories (day, type_id, units) VALUES (o.created_at::date, sold_type, sold_units)
  ON CONFLICT (day, type_id) DO UPDATE SET units = sales_daily_categories.units + EXCLUDED.units;
  INSERT INTO sales_daily_copies (book_copy_id, day, units) VALUES (sold_copy, o.created_at::date, sold_units)
  ON CONFLICT (book_copy_id, day) DO UPDATE SET units = sales_daily_copies.units + EXCLUDED.units;
END $$;

CREATE OR REPLACE FUNCTION sales_daily_keep_lines() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM sales_daily_add_line(OLD.order_id, OLD.book_copy_id, OLD.type_id, -OLD.quantity);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM sales_daily_add_line(NEW.order_id, NEW.book_copy_id, NEW.type_id, NEW.quantity);
  END IF;
  RETURN NULL;
END $$;

DROP TRIGGER order_items_sales_daily ON order_items;
CREATE TRIGGER order_items_sales_daily AFTER INSERT OR UPDATE OF quantity, book_copy_id, order_id, type_id OR DELETE ON order_items
  FOR EACH ROW EXECUTE FUNCTION sales_daily_keep_lines();

CREATE OR REPLACE FUNCTION sales_daily_rebuild() RETURNS void LANGUAGE sql AS $$
  TRUNCATE sales_daily, sales_daily_categories, sales_daily_copies;
  INSERT INTO sales_daily (day, status, orders, revenue)
  SELECT created_at::date, status, count(*), sum(total_price) FROM orders GROUP BY 1, 2;
  INSERT INTO sales_daily_categories (day, type_id, units)
  SELECT o.created_at::date, oi.type_id, sum(oi.quantity)
  FROM orders o JOIN order_items oi ON oi.order_id = o.id
  WHERE order_is_sold(o.status) GROUP BY 1, 2;
  INSERT INTO sales_daily_copies (book_copy_id, day, units)
  SELECT oi.book_copy_id, o.created_at::date, sum(oi.quantity)
  FROM orders o JOIN order_items oi ON oi.order_id = o.id
  WHERE order_is_sold(o.status) GROUP BY 1, 2;
$$;

-- The categories as the lines were sold (the same as before for every book that never changed category).
DELETE FROM sales_daily_categories;
INSERT INTO sales_daily_categories (day, type_id, units)
SELECT o.created_at::date, oi.type_id, sum(oi.quantity)
FROM orders o JOIN order_items oi ON oi.order_id = o.id
WHERE order_is_sold(o.status) GROUP BY 1, 2;

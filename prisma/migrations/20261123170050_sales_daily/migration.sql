-- CreateTable
CREATE TABLE "sales_daily" (
    "day" DATE NOT NULL,
    "status" TEXT NOT NULL,
    "orders" INTEGER NOT NULL DEFAULT 0,
    "revenue" DECIMAL(14,2) NOT NULL DEFAULT 0,

    CONSTRAINT "sales_daily_pkey" PRIMARY KEY ("day","status")
);

-- CreateTable
CREATE TABLE "sales_daily_categories" (
    "day" DATE NOT NULL,
    "type_id" INTEGER NOT NULL,
    "units" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "sales_daily_categories_pkey" PRIMARY KEY ("day","type_id")
);

-- CreateTable
CREATE TABLE "sales_daily_copies" (
    "book_copy_id" INTEGER NOT NULL,
    "day" DATE NOT NULL,
    "units" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "sales_daily_copies_pkey" PRIMARY KEY ("book_copy_id","day")
);

-- The staff reports' daily aggregates, kept in the transaction of every order write, so a month of
-- charts or Low Stock's "sold in 30 days" reads a few hundred rows whatever the order history's size.
-- "Sold" leaves out cancelled and failed orders (the statuses of orders_status_known).

CREATE FUNCTION order_is_sold(status text) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT status NOT IN ('cancelled', 'failed')
$$;

-- Adds `sign` times one order's lines to the per-category and per-copy units of its day.
CREATE FUNCTION sales_daily_add_lines(for_order integer, on_day date, sign integer) RETURNS void LANGUAGE sql AS $$
  INSERT INTO sales_daily_categories (day, type_id, units)
  SELECT on_day, b.type_id, sign * sum(oi.quantity)
  FROM order_items oi JOIN book_copies c ON c.id = oi.book_copy_id JOIN books b ON b.id = c.book_id
  WHERE oi.order_id = for_order
  GROUP BY b.type_id
  ON CONFLICT (day, type_id) DO UPDATE SET units = sales_daily_categories.units + EXCLUDED.units;
  INSERT INTO sales_daily_copies (book_copy_id, day, units)
  SELECT oi.book_copy_id, on_day, sign * sum(oi.quantity)
  FROM order_items oi
  WHERE oi.order_id = for_order
  GROUP BY oi.book_copy_id
  ON CONFLICT (book_copy_id, day) DO UPDATE SET units = sales_daily_copies.units + EXCLUDED.units;
$$;

CREATE FUNCTION sales_daily_keep_orders() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE sales_daily SET orders = orders - 1, revenue = revenue - OLD.total_price
    WHERE day = OLD.created_at::date AND status = OLD.status;
    -- A delete runs before the lines' cascade: take them away while they are still there.
    IF order_is_sold(OLD.status) AND (TG_OP = 'DELETE' OR NOT order_is_sold(NEW.status) OR OLD.created_at::date <> NEW.created_at::date) THEN
      PERFORM sales_daily_add_lines(OLD.id, OLD.created_at::date, -1);
    END IF;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO sales_daily (day, status, orders, revenue) VALUES (NEW.created_at::date, NEW.status, 1, NEW.total_price)
    ON CONFLICT (day, status) DO UPDATE SET orders = sales_daily.orders + 1, revenue = sales_daily.revenue + EXCLUDED.revenue;
    -- Checkout inserts the order before its lines; the lines' own trigger counts them then.
    IF TG_OP = 'UPDATE' AND order_is_sold(NEW.status)
       AND (NOT order_is_sold(OLD.status) OR OLD.created_at::date <> NEW.created_at::date) THEN
      PERFORM sales_daily_add_lines(NEW.id, NEW.created_at::date, 1);
    END IF;
    RETURN NEW;
  END IF;
  RETURN OLD;
END $$;

-- Adds `sold_units` of a copy, sold in an order, to its day's category and copy counts (when the order is sold).
CREATE FUNCTION sales_daily_add_line(for_order integer, sold_copy integer, sold_units integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  o orders;
BEGIN
  SELECT * INTO o FROM orders WHERE id = for_order;
  -- No order: the line goes with its order, whose own trigger took it away already.
  IF NOT FOUND OR NOT order_is_sold(o.status) THEN
    RETURN;
  END IF;
  INSERT INTO sales_daily_categories (day, type_id, units)
  SELECT o.created_at::date, b.type_id, sold_units FROM book_copies c JOIN books b ON b.id = c.book_id WHERE c.id = sold_copy
  ON CONFLICT (day, type_id) DO UPDATE SET units = sales_daily_categories.units + EXCLUDED.units;
  INSERT INTO sales_daily_copies (book_copy_id, day, units) VALUES (sold_copy, o.created_at::date, sold_units)
  ON CONFLICT (book_copy_id, day) DO UPDATE SET units = sales_daily_copies.units + EXCLUDED.units;
END $$;

CREATE FUNCTION sales_daily_keep_lines() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM sales_daily_add_line(OLD.order_id, OLD.book_copy_id, -OLD.quantity);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM sales_daily_add_line(NEW.order_id, NEW.book_copy_id, NEW.quantity);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER orders_sales_daily_write AFTER INSERT OR UPDATE OF status, total_price, created_at ON orders
  FOR EACH ROW EXECUTE FUNCTION sales_daily_keep_orders();
CREATE TRIGGER orders_sales_daily_delete BEFORE DELETE ON orders
  FOR EACH ROW EXECUTE FUNCTION sales_daily_keep_orders();
CREATE TRIGGER order_items_sales_daily AFTER INSERT OR UPDATE OF quantity, book_copy_id, order_id OR DELETE ON order_items
  FOR EACH ROW EXECUTE FUNCTION sales_daily_keep_lines();

-- Rebuilds all three from the orders: for this migration, and for a bulk load that ran with the
-- triggers off (the benchmark's generated history).
CREATE FUNCTION sales_daily_rebuild() RETURNS void LANGUAGE sql AS $$
  TRUNCATE sales_daily, sales_daily_categories, sales_daily_copies;
  INSERT INTO sales_daily (day, status, orders, revenue)
  SELECT created_at::date, status, count(*), sum(total_price) FROM orders GROUP BY 1, 2;
  INSERT INTO sales_daily_categories (day, type_id, units)
  SELECT o.created_at::date, b.type_id, sum(oi.quantity)
  FROM orders o JOIN order_items oi ON oi.order_id = o.id JOIN book_copies c ON c.id = oi.book_copy_id JOIN books b ON b.id = c.book_id
  WHERE order_is_sold(o.status) GROUP BY 1, 2;
  INSERT INTO sales_daily_copies (book_copy_id, day, units)
  SELECT oi.book_copy_id, o.created_at::date, sum(oi.quantity)
  FROM orders o JOIN order_items oi ON oi.order_id = o.id
  WHERE order_is_sold(o.status) GROUP BY 1, 2;
$$;
SELECT sales_daily_rebuild();

-- TRUNCATE fires no row trigger, so emptying the orders (or their lines) left the day aggregates that
-- the row triggers keep (20261123170050_sales_daily) counting orders that are gone. Since the
-- dashboard's and the orders page's order counts sum sales_daily, a DBA's TRUNCATE must empty them too.
CREATE FUNCTION sales_daily_forget_lines() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM sales_daily_categories;
  DELETE FROM sales_daily_copies;
  RETURN NULL;
END $$;

CREATE FUNCTION sales_daily_forget_orders() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM sales_daily;
  RETURN NULL;
END $$;

-- Truncating orders truncates their lines too (CASCADE, or both named), which fires the lines' trigger.
CREATE TRIGGER orders_sales_daily_truncate AFTER TRUNCATE ON orders
  FOR EACH STATEMENT EXECUTE FUNCTION sales_daily_forget_orders();
CREATE TRIGGER order_items_sales_daily_truncate AFTER TRUNCATE ON order_items
  FOR EACH STATEMENT EXECUTE FUNCTION sales_daily_forget_lines();

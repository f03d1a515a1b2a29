-- A copy's units sold are the units of its order lines whose orders are neither cancelled nor failed:
-- checkout adds them and a cancel takes them back (api/src/modules/orders), as the seed counts them.
-- Before 29 November a failed order could be moved on by staff and then cancelled, which took back
-- units it had never added (20261129090000_failed_orders_keep_their_status left such orders as they
-- were): those copies kept too few, and Our Bestsellers ranks by them. They are counted again from
-- their lines. Only a copy whose count differs is written, so no other copy's version moves (a staff
-- form open on it is not made stale); a database that never ran that code writes none. One read of
-- the order lines: seconds at a million orders, while sales wait.
UPDATE "book_copies" c SET "units_sold" = coalesce(s.units, 0)
FROM "book_copies" c2
LEFT JOIN (
  SELECT oi.book_copy_id, sum(oi.quantity)::int AS units
  FROM "order_items" oi JOIN "orders" o ON o.id = oi.order_id
  WHERE o.status NOT IN ('cancelled', 'failed')
  GROUP BY oi.book_copy_id
) s ON s.book_copy_id = c2.id
WHERE c.id = c2.id AND c.units_sold IS DISTINCT FROM coalesce(s.units, 0);

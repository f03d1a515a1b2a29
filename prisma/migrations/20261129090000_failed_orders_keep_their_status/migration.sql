-- A failed order took no stock, and the spec's status buttons now leave it failed. Before, they could
-- make it Processing or Shipped: counted as sold since, and cancellable for stock it never took. The
-- audit log has each such change by staff (within RETENTION_DAYS), with the status it replaced; such
-- an order goes back to failed, and the day's counts' trigger takes it out of what was sold. One
-- cancelled since stays cancelled: its cancel put back stock it never took, which the ledger names (a
-- cancellation movement, `order:<id>`), for staff to correct by hand.
CREATE TEMPORARY TABLE "revived_failed_orders" AS
SELECT o.id, (SELECT coalesce(max(m.id), 0) FROM mail_outbox m) AS mail_before
FROM "orders" o
WHERE o.status NOT IN ('failed', 'cancelled')
  AND EXISTS (
    SELECT 1 FROM security_events e
    WHERE e.type = 'backoffice_write' AND e.entity = 'Order' AND e.entity_id = o.id::text
      AND e.details -> 'before' ->> 'status' = 'failed');

UPDATE "orders" SET "status" = 'failed' WHERE id IN (SELECT id FROM "revived_failed_orders");

-- The repair is not news for their clients: the status e-mails its trigger wrote in this transaction
-- go with it, unsent (no sender sees a row before it commits). Only the orders' rows are locked, not
-- the table, so checkouts go on meanwhile.
DELETE FROM mail_outbox m USING "revived_failed_orders" r
WHERE m.order_id = r.id AND m.kind = 'order_status' AND m.id > r.mail_before;

DROP TABLE "revived_failed_orders";

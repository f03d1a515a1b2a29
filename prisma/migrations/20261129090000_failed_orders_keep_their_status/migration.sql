-- A failed order took no stock, and the spec's status buttons now leave it failed. Before, they could
-- make it Processing or Shipped: counted as sold since, and cancellable for stock it never took. The
-- audit log has each such change by staff (within RETENTION_DAYS), with the status it replaced; such
-- an order goes back to failed, and the day's counts' trigger takes it out of what was sold. No
-- status e-mail tells its client of this repair. One cancelled since stays cancelled: its cancel put
-- back stock it never took, which the ledger names (a cancellation movement, `order:<id>`), for staff
-- to correct by hand.
ALTER TABLE "orders" DISABLE TRIGGER "orders_status_mail";
UPDATE "orders" o SET "status" = 'failed'
FROM (
  SELECT DISTINCT e.entity_id FROM security_events e
  WHERE e.type = 'backoffice_write' AND e.entity = 'Order' AND e.details -> 'before' ->> 'status' = 'failed'
) revived
WHERE revived.entity_id = o.id::text AND o.status NOT IN ('failed', 'cancelled');
ALTER TABLE "orders" ENABLE TRIGGER "orders_status_mail";

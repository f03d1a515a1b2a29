-- When an order first left the shop (Shipped, delivered or success), kept when staff set it back to
-- Processing (the spec's buttons allow it): such an order can no longer be cancelled, as its books
-- are gone and putting their stock back would sell copies the shop does not have. Set by the
-- back-office's status change from the status it replaces.
ALTER TABLE "orders" ADD COLUMN "shipped_at" TIMESTAMP(3);

-- Orders already set back before this: the audit log has each staff status change with the row
-- before it (within RETENTION_DAYS); an order changed from such a status had shipped by then.
UPDATE "orders" o SET "shipped_at" = left_at.at
FROM (
  SELECT e.entity_id, min(e.at) AS at FROM security_events e
  WHERE e.type = 'backoffice_write' AND e.entity = 'Order' AND e.details -> 'before' ->> 'status' IN ('Shipped', 'delivered', 'success')
  GROUP BY e.entity_id
) left_at
WHERE left_at.entity_id = o.id::text AND o.status IN ('pending', 'Processing');

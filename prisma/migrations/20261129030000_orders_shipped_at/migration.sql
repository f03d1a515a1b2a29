-- When an order first left the shop (Shipped, delivered or success), kept when staff set it back to
-- Processing (the spec's buttons allow it): such an order can no longer be cancelled, as its books
-- are gone and putting their stock back would sell copies the shop does not have. Set by the
-- back-office's status change from the status it replaces; older orders need none, as only that
-- change can move an order out of those statuses.
ALTER TABLE "orders" ADD COLUMN "shipped_at" TIMESTAMP(3);

-- A restock sent with an Idempotency-Key names it in its ledger row (reference `restock:<key>`), so
-- a retry of it finds the row and adds nothing more (api/src/modules/catalog-admin/low-stock.ts).
-- Unique among restocks: the lookup's index, and a key that can never count twice. A restock without
-- a key has no reference (NULL), as before. Not CONCURRENTLY: replicas starting at once migrate under
-- a lock the others wait for in a transaction, which a concurrent build waits for in turn (they hung);
-- the build reads the ledger once, seconds at a million orders, while sales wait.
CREATE UNIQUE INDEX "stock_movements_restock_reference_key" ON "stock_movements" ("reference") WHERE "reason" = 'restock';

-- A restock sent with an Idempotency-Key names it in its ledger row (reference `restock:<key>`), so
-- a retry of it finds the row and adds nothing more (api/src/modules/catalog-admin/low-stock.ts).
-- Unique among restocks: the lookup's index, and a key that can never count twice. A restock without
-- a key has no reference (NULL), as before.
CREATE UNIQUE INDEX "stock_movements_restock_reference_key" ON "stock_movements" ("reference") WHERE "reason" = 'restock';

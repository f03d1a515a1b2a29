-- A restock sent with an Idempotency-Key names it in its ledger row (reference `restock:<key>`), so
-- a retry of it finds the row and adds nothing more (api/src/modules/catalog-admin/low-stock.ts).
-- Unique among restocks: the lookup's index, and a key that can never count twice. A restock without
-- a key has no reference (NULL), as before. Built CONCURRENTLY, alone in its migration (outside a
-- transaction): the ledger holds a row per sale, and checkouts write to it while the index is built.
CREATE UNIQUE INDEX CONCURRENTLY "stock_movements_restock_reference_key" ON "stock_movements" ("reference") WHERE "reason" = 'restock';

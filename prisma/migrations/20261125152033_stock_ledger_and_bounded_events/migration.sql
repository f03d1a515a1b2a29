-- Stock integrity and bounded security records (decision record 12).

-- A copy's version, raised on every update: a back-office save says which version it read.
ALTER TABLE "book_copies" ADD COLUMN     "version" INTEGER NOT NULL DEFAULT 1;

-- A repeated refusal is one row per kind, address and window, with a count.
ALTER TABLE "security_events" ADD COLUMN     "bucket" TIMESTAMP(3),
ADD COLUMN     "count" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "last_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- CreateTable
CREATE TABLE "stock_movements" (
    "id" BIGSERIAL NOT NULL,
    "copy_id" INTEGER NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "change" INTEGER NOT NULL,
    "stock_after" INTEGER NOT NULL,
    "version" INTEGER NOT NULL,
    "reason" TEXT NOT NULL,
    "actor" TEXT,
    "reference" TEXT,

    CONSTRAINT "stock_movements_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "stock_movements_copy_id_id_idx" ON "stock_movements"("copy_id", "id" DESC);

-- AddForeignKey
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_copy_id_fkey" FOREIGN KEY ("copy_id") REFERENCES "book_copies"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_reason_check"
  CHECK (reason IN ('opening', 'new_copy', 'sale', 'cancellation', 'staff_edit', 'import', 'restock', 'correction'));

-- The stock each copy holds today opens its ledger, so every copy's stock is the sum of its movements.
INSERT INTO stock_movements (copy_id, change, stock_after, version, reason)
SELECT id, quantity, quantity, version, 'opening' FROM book_copies WHERE quantity <> 0;

-- Why stock moved. The writer names it for its transaction (bookshop.stock_reason: restock, import,
-- cancellation), else it follows from the change: a back-office employee named for the transaction
-- made a staff edit; units sold rising or falling with the stock is a sale or a cancellation;
-- anything else was done outside the shop's code (by hand) and is a correction.
CREATE FUNCTION stock_movement_reason(units_sold_change integer) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT coalesce(
    nullif(current_setting('bookshop.stock_reason', true), ''),
    CASE
      WHEN nullif(current_setting('bookshop.audit_actor', true), '') IS NOT NULL THEN 'staff_edit'
      WHEN units_sold_change > 0 THEN 'sale'
      WHEN units_sold_change < 0 THEN 'cancellation'
      ELSE 'correction'
    END)
$$;

-- One trigger, before the row is written: the version rises, and a stock change is a movement in
-- the same transaction (a rolled-back change leaves neither).
CREATE FUNCTION book_copies_versioned_stock() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.version := OLD.version + 1;
  IF NEW.quantity <> OLD.quantity THEN
    INSERT INTO stock_movements (copy_id, change, stock_after, version, reason, actor, reference)
    VALUES (NEW.id, NEW.quantity - OLD.quantity, NEW.quantity, NEW.version, stock_movement_reason(NEW.units_sold - OLD.units_sold),
            nullif(current_setting('bookshop.audit_actor', true), ''), nullif(current_setting('bookshop.stock_reference', true), ''));
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER book_copies_versioned_stock BEFORE UPDATE ON book_copies FOR EACH ROW EXECUTE FUNCTION book_copies_versioned_stock();

-- New copies open their ledger once per statement, so a bulk load writes one INSERT, not one per row.
CREATE FUNCTION book_copies_opening_stock() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO stock_movements (copy_id, change, stock_after, version, reason, actor, reference)
  SELECT id, quantity, quantity, version, coalesce(nullif(current_setting('bookshop.stock_reason', true), ''), 'new_copy'),
         nullif(current_setting('bookshop.audit_actor', true), ''), nullif(current_setting('bookshop.stock_reference', true), '')
  FROM added WHERE quantity <> 0;
  RETURN NULL;
END $$;
CREATE TRIGGER book_copies_opening_stock AFTER INSERT ON book_copies REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION book_copies_opening_stock();

-- The audit log ignores the version, as it ignores the other columns the shop keeps itself.
CREATE OR REPLACE FUNCTION audit_backoffice_write() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  actor text := nullif(current_setting('bookshop.audit_actor', true), '');
  -- Kept up by the shop itself, not by the employee: neither compared nor stored.
  derived text[] := ARRAY['search_text', 'ratings_count', 'ratings_sum', 'units_sold', 'version'];
  -- Named when changed, never stored: a secret, and text too long to say who changed what.
  unstored text[] := ARRAY['password_hash', 'description'];
  before_row jsonb;
  after_row jsonb;
  changed text[];
BEGIN
  IF actor IS NULL THEN
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN before_row := to_jsonb(OLD) - derived; END IF;
  IF TG_OP <> 'DELETE' THEN after_row := to_jsonb(NEW) - derived; END IF;
  SELECT coalesce(array_agg(key ORDER BY key), '{}') INTO changed
  FROM jsonb_object_keys(coalesce(after_row, before_row)) AS key
  WHERE before_row IS NULL OR after_row IS NULL OR before_row -> key IS DISTINCT FROM after_row -> key;
  IF TG_OP = 'UPDATE' AND cardinality(changed) = 0 THEN
    RETURN NULL;
  END IF;
  before_row := before_row - unstored;
  after_row := after_row - unstored;
  INSERT INTO security_events (type, actor, address, entity, entity_id, details)
  VALUES (
    'backoffice_write', actor, nullif(current_setting('bookshop.audit_address', true), ''), TG_ARGV[0],
    coalesce(after_row ->> 'id', before_row ->> 'id'),
    jsonb_build_object('operation', lower(TG_OP), 'changed', to_jsonb(changed), 'before', before_row, 'after', after_row)
  );
  RETURN NULL;
END $$;

-- One row per kind, address (or account) and window: the upsert's target.
CREATE UNIQUE INDEX "security_events_repeated_key" ON "security_events" ("type", "bucket", (coalesce("address", '')), (coalesce("actor", '')))
  WHERE "bucket" IS NOT NULL;

-- Still append-only for everyone, with two exceptions: a repeated event's count and last time may
-- rise, and the retention job (which names itself with bookshop.retention for its transaction) may
-- delete old rows and erase the personal data of people deleted long ago.
CREATE OR REPLACE FUNCTION security_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('bookshop.retention', true) = 'on' THEN
    RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
  END IF;
  IF TG_OP = 'UPDATE' AND OLD.bucket IS NOT NULL AND NEW.count > OLD.count
     AND (to_jsonb(NEW) - ARRAY['count', 'last_at']) = (to_jsonb(OLD) - ARRAY['count', 'last_at']) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'security_events is append-only' USING ERRCODE = 'insufficient_privilege';
END $$;

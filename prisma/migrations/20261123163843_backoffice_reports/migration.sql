-- CreateTable
CREATE TABLE "shop_settings" (
    "id" BOOLEAN NOT NULL DEFAULT true,
    "low_stock_threshold" INTEGER NOT NULL DEFAULT 5,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "shop_settings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "import_jobs" (
    "id" SERIAL NOT NULL,
    "actor" TEXT NOT NULL,
    "address" TEXT,
    "status" TEXT NOT NULL DEFAULT 'checked',
    "skip_invalid" BOOLEAN NOT NULL DEFAULT false,
    "total" INTEGER NOT NULL DEFAULT 0,
    "processed" INTEGER NOT NULL DEFAULT 0,
    "summary" JSONB NOT NULL,
    "plan" JSONB NOT NULL,
    "error" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMP(3),

    CONSTRAINT "import_jobs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "import_jobs_created_at_idx" ON "import_jobs"("created_at" DESC);

-- CreateIndex
CREATE INDEX "book_copies_quantity_idx" ON "book_copies"("quantity");

-- CreateIndex
CREATE INDEX "security_events_entity_id_idx" ON "security_events"("entity", "id" DESC);

-- CreateIndex
CREATE INDEX "security_events_actor_id_idx" ON "security_events"("actor", "id" DESC);

-- Beyond the spec, for staff: the audit log, the low-stock threshold and bulk imports.

ALTER TABLE "shop_settings" ADD CONSTRAINT "shop_settings_one_row" CHECK ("id");
ALTER TABLE "shop_settings" ADD CONSTRAINT "shop_settings_threshold_range" CHECK ("low_stock_threshold" BETWEEN 0 AND 100000);
INSERT INTO "shop_settings" ("id") VALUES (true);
ALTER TABLE "import_jobs" ADD CONSTRAINT "import_jobs_status" CHECK ("status" IN ('checked', 'running', 'done', 'failed'));

-- Every back-office write is recorded in the transaction that makes it, by the database itself: the
-- API names the acting employee with set_config('bookshop.audit_actor', ..., true) in that same
-- transaction (modules/security/audit.ts), and this trigger writes who, which row, and the row's
-- columns before and after. Writes with no actor named (the storefront: checkout, ratings) are not
-- back-office writes and are not recorded. A secret's change is named but its value never stored;
-- columns the shop keeps itself are left out, and an update that changes nothing else records nothing.
CREATE FUNCTION audit_backoffice_write() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  actor text := nullif(current_setting('bookshop.audit_actor', true), '');
  -- Kept up by the shop itself, not by the employee: neither compared nor stored.
  derived text[] := ARRAY['search_text', 'ratings_count', 'ratings_sum', 'units_sold'];
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

CREATE TRIGGER authors_audit AFTER INSERT OR UPDATE OR DELETE ON authors FOR EACH ROW EXECUTE FUNCTION audit_backoffice_write('Author');
CREATE TRIGGER books_audit AFTER INSERT OR UPDATE OR DELETE ON books FOR EACH ROW EXECUTE FUNCTION audit_backoffice_write('Book');
CREATE TRIGGER book_copies_audit AFTER INSERT OR UPDATE OR DELETE ON book_copies FOR EACH ROW EXECUTE FUNCTION audit_backoffice_write('BookCopy');
CREATE TRIGGER orders_audit AFTER INSERT OR UPDATE OR DELETE ON orders FOR EACH ROW EXECUTE FUNCTION audit_backoffice_write('Order');
CREATE TRIGGER employees_audit AFTER INSERT OR UPDATE OR DELETE ON employees FOR EACH ROW EXECUTE FUNCTION audit_backoffice_write('Employee');
CREATE TRIGGER contact_messages_audit AFTER INSERT OR UPDATE OR DELETE ON contact_messages FOR EACH ROW EXECUTE FUNCTION audit_backoffice_write('ContactMessage');
CREATE TRIGGER book_reviews_audit AFTER INSERT OR UPDATE OR DELETE ON book_reviews FOR EACH ROW EXECUTE FUNCTION audit_backoffice_write('BookReview');
CREATE TRIGGER shop_settings_audit AFTER INSERT OR UPDATE OR DELETE ON shop_settings FOR EACH ROW EXECUTE FUNCTION audit_backoffice_write('ShopSettings');

-- The log is append-only: no statement may change or remove an entry. (TRUNCATE, which only the
-- database owner's maintenance runs, such as the seed's reset, is a separate privilege.)
CREATE FUNCTION security_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'security_events is append-only' USING ERRCODE = 'insufficient_privilege';
END $$;
CREATE TRIGGER security_events_append_only BEFORE UPDATE OR DELETE ON security_events FOR EACH ROW EXECUTE FUNCTION security_events_append_only();

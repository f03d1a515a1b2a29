-- DropForeignKey
ALTER TABLE "notice_outbox" DROP CONSTRAINT "notice_outbox_notice_id_fkey";

-- AlterTable
ALTER TABLE "clients" ADD COLUMN     "back_in_stock_emails" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "status_emails" BOOLEAN NOT NULL DEFAULT true;

-- AlterTable
ALTER TABLE "orders" ADD COLUMN     "cancel_reason" TEXT;

-- DropTable
DROP TABLE "notice_outbox";

-- CreateTable
CREATE TABLE "mail_outbox" (
    "id" BIGSERIAL NOT NULL,
    "kind" TEXT NOT NULL,
    "client_id" INTEGER,
    "employee_id" INTEGER,
    "order_id" INTEGER,
    "copy_id" INTEGER,
    "contact_message_id" INTEGER,
    "payload" JSONB,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "claimed_until" TIMESTAMP(3),
    "sent_at" TIMESTAMP(3),
    "dead_at" TIMESTAMP(3),
    "last_error" TEXT,

    CONSTRAINT "mail_outbox_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "mail_outbox_sent_at_dead_at_next_attempt_at_idx" ON "mail_outbox"("sent_at", "dead_at", "next_attempt_at");

-- CreateIndex
CREATE INDEX "mail_outbox_dead_at_idx" ON "mail_outbox"("dead_at" DESC);

ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_kind_known"
  CHECK (kind IN ('order_placed', 'order_status', 'back_in_stock', 'contact_received', 'password_changed'));

-- Back in stock: each notice is also an e-mail, written with it in the restock's transaction.
CREATE OR REPLACE FUNCTION book_copies_back_in_stock() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.is_available AND NEW.quantity > 0 AND NOT (OLD.is_available AND OLD.quantity > 0) THEN
    WITH written AS (
      INSERT INTO notices (client_id, book_copy_id, kind)
      SELECT w.client_id, NEW.id, 'back_in_stock' FROM wishlist_items w
      WHERE w.book_copy_id = NEW.id
        AND NOT EXISTS (SELECT 1 FROM notices n WHERE n.client_id = w.client_id AND n.book_copy_id = NEW.id AND n.read_at IS NULL)
      RETURNING client_id
    )
    INSERT INTO mail_outbox (kind, client_id, copy_id) SELECT 'back_in_stock', client_id, NEW.id FROM written;
  END IF;
  RETURN NULL;
END $$;

-- A changed order status is an e-mail to its client, written in the change's transaction, whoever
-- changed it (staff, the client's own cancel). The status and the reason are kept as they were.
CREATE FUNCTION orders_status_mail() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO mail_outbox (kind, client_id, order_id, payload)
  VALUES ('order_status', NEW.client_id, NEW.id, jsonb_build_object('status', NEW.status, 'reason', NEW.cancel_reason));
  RETURN NULL;
END $$;
CREATE TRIGGER orders_status_mail AFTER UPDATE OF status ON orders
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION orders_status_mail();

-- Wishlists and back-in-stock notices (beyond the spec), with an outbox for a later e-mail sender.
-- CreateTable
CREATE TABLE "wishlist_items" (
    "client_id" INTEGER NOT NULL,
    "book_copy_id" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "wishlist_items_pkey" PRIMARY KEY ("client_id","book_copy_id")
);

-- CreateTable
CREATE TABLE "notices" (
    "id" SERIAL NOT NULL,
    "client_id" INTEGER NOT NULL,
    "book_copy_id" INTEGER NOT NULL,
    "kind" TEXT NOT NULL DEFAULT 'back_in_stock',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "read_at" TIMESTAMP(3),

    CONSTRAINT "notices_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notice_outbox" (
    "id" SERIAL NOT NULL,
    "notice_id" INTEGER NOT NULL,
    "channel" TEXT NOT NULL DEFAULT 'email',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sent_at" TIMESTAMP(3),

    CONSTRAINT "notice_outbox_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "wishlist_items_book_copy_id_idx" ON "wishlist_items"("book_copy_id");

-- CreateIndex
CREATE INDEX "notices_client_id_created_at_idx" ON "notices"("client_id", "created_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "notice_outbox_notice_id_key" ON "notice_outbox"("notice_id");

-- CreateIndex
CREATE INDEX "notice_outbox_created_at_idx" ON "notice_outbox"("created_at");

-- AddForeignKey
ALTER TABLE "wishlist_items" ADD CONSTRAINT "wishlist_items_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "clients"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "wishlist_items" ADD CONSTRAINT "wishlist_items_book_copy_id_fkey" FOREIGN KEY ("book_copy_id") REFERENCES "book_copies"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notices" ADD CONSTRAINT "notices_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "clients"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notices" ADD CONSTRAINT "notices_book_copy_id_fkey" FOREIGN KEY ("book_copy_id") REFERENCES "book_copies"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notice_outbox" ADD CONSTRAINT "notice_outbox_notice_id_fkey" FOREIGN KEY ("notice_id") REFERENCES "notices"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A copy comes back when it becomes on sale with stock after not being so (a restock from 0, or
-- made available again). Each client who wishes for it gets a notice, and each notice an outbox row
-- for an e-mail sender, in this same transaction: a rolled-back restock leaves none, and one
-- restock writes one notice per client. A client who has not read the last one for this copy yet
-- gets no second one (a copy selling out and coming back all day would otherwise pile them up).
CREATE FUNCTION book_copies_back_in_stock() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.is_available AND NEW.quantity > 0 AND NOT (OLD.is_available AND OLD.quantity > 0) THEN
    WITH written AS (
      INSERT INTO notices (client_id, book_copy_id, kind)
      SELECT w.client_id, NEW.id, 'back_in_stock' FROM wishlist_items w
      WHERE w.book_copy_id = NEW.id
        AND NOT EXISTS (SELECT 1 FROM notices n WHERE n.client_id = w.client_id AND n.book_copy_id = NEW.id AND n.read_at IS NULL)
      RETURNING id
    )
    INSERT INTO notice_outbox (notice_id) SELECT id FROM written;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER book_copies_back_in_stock
  AFTER UPDATE OF quantity, is_available ON book_copies
  FOR EACH ROW EXECUTE FUNCTION book_copies_back_in_stock();

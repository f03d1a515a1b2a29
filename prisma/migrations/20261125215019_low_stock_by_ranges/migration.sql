-- DropIndex
DROP INDEX "book_copies_quantity_idx";

-- CreateIndex
CREATE INDEX "book_copies_quantity_id_idx" ON "book_copies"("quantity", "id");

-- CreateIndex
CREATE INDEX "sales_daily_copies_day_book_copy_id_units_idx" ON "sales_daily_copies"("day", "book_copy_id", "units");

-- DropIndex
DROP INDEX "books_type_id_idx";

-- CreateIndex
CREATE INDEX "books_type_id_ratings_count_idx" ON "books"("type_id", "ratings_count" DESC);

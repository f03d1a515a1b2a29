-- An author's page lists their books most-rated first: one index serves that order and the foreign key.
-- DropIndex
DROP INDEX "books_author_id_idx";

-- CreateIndex
CREATE INDEX "books_author_id_ratings_count_idx" ON "books"("author_id", "ratings_count" DESC);

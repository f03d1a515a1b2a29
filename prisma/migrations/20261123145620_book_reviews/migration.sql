-- Buyers' ratings and reviews (beyond the spec): one per client and book, kept in the books' ratings by a trigger.
-- CreateTable
CREATE TABLE "book_reviews" (
    "id" SERIAL NOT NULL,
    "book_id" INTEGER NOT NULL,
    "client_id" INTEGER NOT NULL,
    "stars" SMALLINT NOT NULL,
    "review" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "hidden_at" TIMESTAMP(3),

    CONSTRAINT "book_reviews_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "book_reviews_book_id_updated_at_idx" ON "book_reviews"("book_id", "updated_at" DESC);

-- CreateIndex
CREATE INDEX "book_reviews_updated_at_idx" ON "book_reviews"("updated_at" DESC);

-- CreateIndex
CREATE INDEX "book_reviews_client_id_idx" ON "book_reviews"("client_id");

-- CreateIndex
CREATE UNIQUE INDEX "book_reviews_book_id_client_id_key" ON "book_reviews"("book_id", "client_id");

-- AddForeignKey
ALTER TABLE "book_reviews" ADD CONSTRAINT "book_reviews_book_id_fkey" FOREIGN KEY ("book_id") REFERENCES "books"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "book_reviews" ADD CONSTRAINT "book_reviews_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "clients"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Stars 1 to 5; a short review.
ALTER TABLE "book_reviews" ADD CONSTRAINT "book_reviews_stars_range" CHECK (stars BETWEEN 1 AND 5);
ALTER TABLE "book_reviews" ADD CONSTRAINT "book_reviews_review_length" CHECK (char_length(review) <= 1000);

-- A book's ratings_count and ratings_sum are the catalog's own figures plus its visible reviews, so
-- every average the shop shows (detail, search, Top Rated) is the combined one without a join. A
-- review counts while it is not hidden; a change of stars, of visibility or a delete moves the sums.
CREATE FUNCTION book_reviews_keep_ratings() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.hidden_at IS NULL THEN
    UPDATE books SET ratings_count = ratings_count - 1, ratings_sum = ratings_sum - OLD.stars WHERE id = OLD.book_id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.hidden_at IS NULL THEN
    UPDATE books SET ratings_count = ratings_count + 1, ratings_sum = ratings_sum + NEW.stars WHERE id = NEW.book_id;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER book_reviews_keep_ratings
  AFTER INSERT OR DELETE OR UPDATE OF stars, hidden_at, book_id ON book_reviews
  FOR EACH ROW EXECUTE FUNCTION book_reviews_keep_ratings();

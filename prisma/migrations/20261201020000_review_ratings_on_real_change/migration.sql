-- A review's save writes its stars every time (what the client sent, not what it read before: two
-- tabs' saves left a row with one tab's stars and the other's words), so the ratings trigger moves
-- the book's sums only when the stars, the visibility or the book really changed. The function is
-- the same; only when it runs changes.
DROP TRIGGER book_reviews_keep_ratings ON book_reviews;

CREATE TRIGGER book_reviews_keep_ratings
  AFTER INSERT OR DELETE ON book_reviews
  FOR EACH ROW EXECUTE FUNCTION book_reviews_keep_ratings();

CREATE TRIGGER book_reviews_keep_ratings_on_change
  AFTER UPDATE OF stars, hidden_at, book_id ON book_reviews
  FOR EACH ROW
  WHEN (OLD.stars IS DISTINCT FROM NEW.stars
        OR (OLD.hidden_at IS NULL) IS DISTINCT FROM (NEW.hidden_at IS NULL)
        OR OLD.book_id IS DISTINCT FROM NEW.book_id)
  EXECUTE FUNCTION book_reviews_keep_ratings();

-- Every change to what the public catalog shows is announced on the channel `catalog_changed`, so that
-- each API instance's catalog cache forgets its answers (api/src/plugins/catalog-cache.ts, decision 11).
-- One notice per statement, sent at commit (a rollback sends none; PostgreSQL folds a transaction's
-- identical notices into one). The projections' refresh sends its own (catalog-projections.ts).
-- A transaction that notifies takes PostgreSQL's one notify lock at commit, so the busiest write, a
-- checkout's stock update (quantity and units sold only), does not notify here: the API announces it
-- after the commit, at most once per 100 ms per instance (catalog-cache.ts, stockChanged).
CREATE FUNCTION notify_catalog_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('catalog_changed', '');
  RETURN NULL;
END;
$$;

CREATE TRIGGER book_copies_catalog_changed AFTER INSERT OR UPDATE OF book_id, price, is_available OR DELETE OR TRUNCATE
  ON book_copies FOR EACH STATEMENT EXECUTE FUNCTION notify_catalog_changed();
CREATE TRIGGER books_catalog_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON books
  FOR EACH STATEMENT EXECUTE FUNCTION notify_catalog_changed();
CREATE TRIGGER authors_catalog_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON authors
  FOR EACH STATEMENT EXECUTE FUNCTION notify_catalog_changed();
CREATE TRIGGER book_types_catalog_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON book_types
  FOR EACH STATEMENT EXECUTE FUNCTION notify_catalog_changed();

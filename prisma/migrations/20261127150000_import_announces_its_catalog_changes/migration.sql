-- A transaction may announce its copies' changes itself, more precisely than the trigger can
-- (issue 32). The triggers' notice is empty and so makes every API instance forget every answer it
-- keeps; an import that moved the stock of a thousand copies, none into or out of stock, then cost
-- every instance a reload of all its answers at once, the day's largest burst of reads. Such a
-- transaction sets bookshop.catalog_notice to 'announced' (set_config's local form: for it alone), and
-- must then send its own notices for its copies before it commits: the import's run does
-- (catalog-transfer-repository.ts), naming the copies when it moved stock alone and sending the empty
-- notice otherwise. Only the trigger on book_copies is silenced: a book, an author or a category the
-- transaction writes is announced by its own trigger as before, and so is every other writer.
CREATE OR REPLACE FUNCTION notify_catalog_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'book_copies' AND current_setting('bookshop.catalog_notice', true) = 'announced' THEN
    RETURN NULL;
  END IF;
  PERFORM pg_notify('catalog_changed', '');
  RETURN NULL;
END;
$$;

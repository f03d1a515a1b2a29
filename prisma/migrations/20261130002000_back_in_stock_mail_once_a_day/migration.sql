-- A wished-for copy back in stock e-mails each client once a day at most: one that sold out and came
-- back again within the day (a client ordering its whole stock and cancelling, ten times a day, or a
-- copy selling its last unit between restocks) e-mailed every wisher who had read the last notice,
-- each time. The notice itself is written as before (the bell is where a client looks), so a copy
-- back again the next morning is never left unannounced; only the e-mail waits for a day since the
-- last notice of the copy. The day is counted in UTC whatever the session's time zone, as the API's
-- sessions (TimeZone=UTC) write the notices' times.
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
    -- The statement sees the notices from before it: `written`'s own are not among them.
    INSERT INTO mail_outbox (kind, client_id, copy_id)
    SELECT 'back_in_stock', w.client_id, NEW.id FROM written w
    WHERE NOT EXISTS (
      SELECT 1 FROM notices n
      WHERE n.client_id = w.client_id AND n.book_copy_id = NEW.id AND n.created_at > timezone('UTC', now()) - interval '1 day');
  END IF;
  RETURN NULL;
END $$;

-- A wished-for copy back in stock tells each client once a day at most: one that sold out and came
-- back again within the day (a client ordering its whole stock and cancelling, ten times a day, or a
-- copy selling its last unit between restocks) wrote a notice and an e-mail to every wisher who had
-- read the last one, each time. Within a day of the last notice, the client has heard it is back;
-- the wishlist still shows the stock live. Reads the notices of one client and copy, as before.
CREATE OR REPLACE FUNCTION book_copies_back_in_stock() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.is_available AND NEW.quantity > 0 AND NOT (OLD.is_available AND OLD.quantity > 0) THEN
    WITH written AS (
      INSERT INTO notices (client_id, book_copy_id, kind)
      SELECT w.client_id, NEW.id, 'back_in_stock' FROM wishlist_items w
      WHERE w.book_copy_id = NEW.id
        AND NOT EXISTS (
          SELECT 1 FROM notices n
          WHERE n.client_id = w.client_id AND n.book_copy_id = NEW.id
            AND (n.read_at IS NULL OR n.created_at > now() - interval '1 day'))
      RETURNING client_id
    )
    INSERT INTO mail_outbox (kind, client_id, copy_id) SELECT 'back_in_stock', client_id, NEW.id FROM written;
  END IF;
  RETURN NULL;
END $$;

-- A status change's e-mail replaces its order's status e-mail still waiting to go, and goes no sooner
-- than ten minutes after the last one sent: a client hears each order's latest status, at most six
-- times an hour however often staff flip it (the status buttons in a loop wrote one e-mail a click).
-- A cancellation goes at once: it is final, and about money. A row a sender holds (claimed, its lease
-- running) is being sent and stays (the sender settles it unsent if it is tried again after a newer
-- one was written); a dead letter stays for an Admin; one settled without sending (the client turned
-- status e-mails off) counts as none sent. Times are UTC, as the app's sessions write them, whatever
-- the session that changes the status.
CREATE OR REPLACE FUNCTION orders_status_mail() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  now_utc CONSTANT timestamp(3) := timezone('UTC', now());
  last_sent timestamp(3);
BEGIN
  DELETE FROM mail_outbox
  WHERE order_id = NEW.id AND kind = 'order_status' AND sent_at IS NULL AND dead_at IS NULL
    AND (claimed_until IS NULL OR claimed_until < now_utc);
  SELECT max(coalesce(sent_at, now_utc)) INTO last_sent
  FROM mail_outbox
  WHERE order_id = NEW.id AND kind = 'order_status' AND dead_at IS NULL
    AND ((sent_at IS NOT NULL AND last_error IS NULL) OR (sent_at IS NULL AND claimed_until >= now_utc));
  INSERT INTO mail_outbox (kind, client_id, order_id, payload, next_attempt_at)
  VALUES ('order_status', NEW.client_id, NEW.id, jsonb_build_object('status', NEW.status, 'reason', NEW.cancel_reason),
          CASE WHEN NEW.status = 'cancelled' THEN now_utc ELSE greatest(now_utc, last_sent + interval '10 minutes') END);
  RETURN NULL;
END $$;

-- An order's e-mails by the order, not by a scan of every e-mail the shop keeps.
CREATE INDEX "mail_outbox_order_id_idx" ON "mail_outbox"("order_id");

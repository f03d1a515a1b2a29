-- An Admin's retry of a dead letter is a request to send it now. A message may wait at most three days
-- (after that it is news no more and is settled unsent), counted from when it was written: a dead
-- letter of an outage longer than that, retried, was settled unsent at once and left the dead-letter
-- list as if it had gone. Its age now counts from the retry.
ALTER TABLE "mail_outbox" ADD COLUMN "requeued_at" TIMESTAMP(3);

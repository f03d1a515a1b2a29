-- What a session was signed in from, as the person would name it ("Firefox on Linux"), taken from the
-- sign-in's User-Agent: the Account screens list one's live sessions so that one left open on another
-- device can be ended (ASVS 5.0 7.5.2). Only the description is kept, never the whole header; null when
-- the header named nothing known, and for sessions started before this column.
ALTER TABLE "session_families" ADD COLUMN "device" VARCHAR(60);

-- A session's tokens are renewed when it proves a second factor (a step-up, an enrolment) or sets a new
-- password: a new access and refresh token, and those from before end (ASVS 5.0 7.2.4: a new session
-- token on re-authentication, the current one terminated). Access tokens name the generation they were
-- issued in; one of an earlier generation is refused. Sessions started before this column, and their
-- tokens, are generation 0.
ALTER TABLE "session_families" ADD COLUMN "generation" INTEGER NOT NULL DEFAULT 0;

-- A refresh token belongs to the generation it was issued in: one from before a renewal is refused even
-- when read before the renewal's expiry of it committed (or on an instance whose clock runs behind).
ALTER TABLE "refresh_tokens" ADD COLUMN "generation" INTEGER NOT NULL DEFAULT 0;

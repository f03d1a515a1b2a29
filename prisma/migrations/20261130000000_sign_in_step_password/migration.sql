-- The sign-in's second step remembers which password the first step checked (a SHA-256 of its hash),
-- so a password changed between the two steps gives the second no session (second-factor-service.ts).
-- Empty for a passkey sign-in, which has no password step, and for steps opened before this column.
ALTER TABLE "sign_in_challenges" ADD COLUMN "password_fingerprint" TEXT;

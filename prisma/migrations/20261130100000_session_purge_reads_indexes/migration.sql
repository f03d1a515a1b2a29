-- The ten-minute purge of sessions and refresh tokens (api/src/modules/sessions/session-repository.ts)
-- read every row of both tables for each batch of 5,000 it deleted: a backlog took a scan per batch.
-- Each condition it deletes by now has its index. Those on when a token was spent and when a session
-- was revoked hold only the rows where it is set (most sessions are never revoked; spent tokens are
-- kept a day); the planner uses them for `used_at < …` and `revoked_at < …`, which imply it. A token of a deleted session is
-- now deleted with it, by family (refresh_tokens_family_id_idx), no longer found by a scan for tokens
-- whose session is gone. Not CONCURRENTLY: migrations run in a transaction (see
-- 20261129210000_restock_request_keys); each build reads its table once.
CREATE INDEX "refresh_tokens_expires_at_idx" ON "refresh_tokens" ("expires_at");
CREATE INDEX "refresh_tokens_used_at_idx" ON "refresh_tokens" ("used_at") WHERE "used_at" IS NOT NULL;
CREATE INDEX "session_families_started_at_idx" ON "session_families" ("started_at");
CREATE INDEX "session_families_revoked_at_idx" ON "session_families" ("revoked_at") WHERE "revoked_at" IS NOT NULL;

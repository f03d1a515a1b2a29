-- The latest catalog change that made each projection stale, kept until a refresh that began after
-- it commits. A refresh waits in an instance's memory for its delay (up to two minutes); an instance
-- stopped or crashed meanwhile took the refresh with it, and the lists stayed out of date until the
-- next change. Each instance reads these at start-up and schedules what they name. One row per
-- projection at most.
CREATE TABLE "projection_changes" (
    "projection" TEXT NOT NULL,
    "changed_at" TIMESTAMPTZ NOT NULL,

    CONSTRAINT "projection_changes_pkey" PRIMARY KEY ("projection")
);

-- CreateTable
CREATE TABLE "projection_refreshes" (
    "projection" TEXT NOT NULL,
    "started_at" TIMESTAMPTZ NOT NULL,

    CONSTRAINT "projection_refreshes_pkey" PRIMARY KEY ("projection")
);

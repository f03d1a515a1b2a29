-- AlterTable
ALTER TABLE "projection_refreshes" ADD COLUMN     "rest_until" TIMESTAMPTZ,
ADD COLUMN     "took_ms" INTEGER;

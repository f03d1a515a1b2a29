-- AlterTable
ALTER TABLE "orders" ADD COLUMN     "idempotency_request_hash" CHAR(64);

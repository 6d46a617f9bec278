-- AlterTable
ALTER TABLE "stock_transactions" ADD COLUMN     "seq" BIGSERIAL NOT NULL,
ALTER COLUMN "createdAt" SET DEFAULT clock_timestamp();

-- AlterEnum
-- This migration adds more than one value to an enum.
-- With PostgreSQL versions 11 and earlier, this is not possible
-- in a single migration. This can be worked around by creating
-- multiple migrations, each migration adding only one value to
-- the enum.


ALTER TYPE "StockRequestEventKind" ADD VALUE 'FULFILMENT';
ALTER TYPE "StockRequestEventKind" ADD VALUE 'RECEIPT';
ALTER TYPE "StockRequestEventKind" ADD VALUE 'RETURN';

-- AlterTable
ALTER TABLE "stock_request_events" ADD COLUMN     "transferId" TEXT;

-- AlterTable
ALTER TABLE "stock_request_lines" ADD COLUMN     "quantityReceived" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "quantityReserved" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "stock_requests" ADD COLUMN     "remainderClosedAt" TIMESTAMP(3),
ADD COLUMN     "remainderClosedBy" TEXT;

-- CreateTable
CREATE TABLE "stock_request_allocations" (
    "id" TEXT NOT NULL,
    "lineId" TEXT NOT NULL,
    "stockLineId" TEXT NOT NULL,
    "quantity" INTEGER NOT NULL,

    CONSTRAINT "stock_request_allocations_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "stock_request_allocations_stockLineId_idx" ON "stock_request_allocations"("stockLineId");

-- CreateIndex
CREATE UNIQUE INDEX "stock_request_allocations_lineId_stockLineId_key" ON "stock_request_allocations"("lineId", "stockLineId");

-- AddForeignKey
ALTER TABLE "stock_request_allocations" ADD CONSTRAINT "stock_request_allocations_lineId_fkey" FOREIGN KEY ("lineId") REFERENCES "stock_request_lines"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "stock_request_allocations" ADD CONSTRAINT "stock_request_allocations_stockLineId_fkey" FOREIGN KEY ("stockLineId") REFERENCES "stock_lines"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

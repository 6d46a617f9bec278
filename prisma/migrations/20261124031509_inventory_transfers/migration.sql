-- CreateEnum
CREATE TYPE "InventoryTransferStatus" AS ENUM ('DRAFT', 'IN_TRANSIT', 'RECEIVED', 'CANCELLED');

-- CreateTable
CREATE TABLE "inventory_transfers" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "sourceLocationId" TEXT NOT NULL,
    "destLocationId" TEXT NOT NULL,
    "status" "InventoryTransferStatus" NOT NULL DEFAULT 'DRAFT',
    "reference" TEXT,
    "notes" TEXT,
    "expectedAt" DATE,
    "sourceType" TEXT,
    "sourceId" TEXT,
    "createdByType" TEXT NOT NULL,
    "createdBy" TEXT NOT NULL,
    "shippedAt" TIMESTAMP(3),
    "shippedBy" TEXT,
    "receivedAt" TIMESTAMP(3),
    "cancelledAt" TIMESTAMP(3),
    "cancelledBy" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "inventory_transfers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "inventory_transfer_lines" (
    "id" TEXT NOT NULL,
    "transferId" TEXT NOT NULL,
    "lineNumber" INTEGER NOT NULL,
    "productMasterId" TEXT NOT NULL,
    "quantity" INTEGER NOT NULL,
    "lotId" TEXT,
    "binId" TEXT,
    "destBinId" TEXT,
    "shippedQuantity" INTEGER NOT NULL DEFAULT 0,
    "receivedQuantity" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "inventory_transfer_lines_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "inventory_transfer_line_lots" (
    "id" TEXT NOT NULL,
    "transferLineId" TEXT NOT NULL,
    "sourceStockLineId" TEXT NOT NULL,
    "lotId" TEXT,
    "binId" TEXT,
    "quantity" INTEGER NOT NULL,
    "receivedQuantity" INTEGER NOT NULL DEFAULT 0,
    "returnedQuantity" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "inventory_transfer_line_lots_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "inventory_transfers_organizationId_status_createdAt_idx" ON "inventory_transfers"("organizationId", "status", "createdAt");

-- CreateIndex
CREATE INDEX "inventory_transfers_organizationId_sourceLocationId_idx" ON "inventory_transfers"("organizationId", "sourceLocationId");

-- CreateIndex
CREATE INDEX "inventory_transfers_organizationId_destLocationId_idx" ON "inventory_transfers"("organizationId", "destLocationId");

-- CreateIndex
CREATE INDEX "inventory_transfers_organizationId_sourceType_sourceId_idx" ON "inventory_transfers"("organizationId", "sourceType", "sourceId");

-- CreateIndex
CREATE UNIQUE INDEX "inventory_transfers_organizationId_id_key" ON "inventory_transfers"("organizationId", "id");

-- CreateIndex
CREATE INDEX "inventory_transfer_lines_productMasterId_idx" ON "inventory_transfer_lines"("productMasterId");

-- CreateIndex
CREATE UNIQUE INDEX "inventory_transfer_lines_transferId_lineNumber_key" ON "inventory_transfer_lines"("transferId", "lineNumber");

-- CreateIndex
CREATE INDEX "inventory_transfer_line_lots_transferLineId_idx" ON "inventory_transfer_line_lots"("transferLineId");

-- CreateIndex
CREATE INDEX "inventory_transfer_line_lots_sourceStockLineId_idx" ON "inventory_transfer_line_lots"("sourceStockLineId");

-- AddForeignKey
ALTER TABLE "inventory_transfers" ADD CONSTRAINT "inventory_transfers_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "inventory_transfers" ADD CONSTRAINT "inventory_transfers_sourceLocationId_fkey" FOREIGN KEY ("sourceLocationId") REFERENCES "locations"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "inventory_transfers" ADD CONSTRAINT "inventory_transfers_destLocationId_fkey" FOREIGN KEY ("destLocationId") REFERENCES "locations"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "inventory_transfer_lines" ADD CONSTRAINT "inventory_transfer_lines_transferId_fkey" FOREIGN KEY ("transferId") REFERENCES "inventory_transfers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "inventory_transfer_lines" ADD CONSTRAINT "inventory_transfer_lines_productMasterId_fkey" FOREIGN KEY ("productMasterId") REFERENCES "product_masters"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "inventory_transfer_lines" ADD CONSTRAINT "inventory_transfer_lines_lotId_fkey" FOREIGN KEY ("lotId") REFERENCES "lots"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "inventory_transfer_lines" ADD CONSTRAINT "inventory_transfer_lines_binId_fkey" FOREIGN KEY ("binId") REFERENCES "bins"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "inventory_transfer_lines" ADD CONSTRAINT "inventory_transfer_lines_destBinId_fkey" FOREIGN KEY ("destBinId") REFERENCES "bins"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "inventory_transfer_line_lots" ADD CONSTRAINT "inventory_transfer_line_lots_transferLineId_fkey" FOREIGN KEY ("transferLineId") REFERENCES "inventory_transfer_lines"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "inventory_transfer_line_lots" ADD CONSTRAINT "inventory_transfer_line_lots_sourceStockLineId_fkey" FOREIGN KEY ("sourceStockLineId") REFERENCES "stock_lines"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "inventory_transfer_line_lots" ADD CONSTRAINT "inventory_transfer_line_lots_lotId_fkey" FOREIGN KEY ("lotId") REFERENCES "lots"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "inventory_transfer_line_lots" ADD CONSTRAINT "inventory_transfer_line_lots_binId_fkey" FOREIGN KEY ("binId") REFERENCES "bins"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Quantities a transfer can never break, whatever writes them.
ALTER TABLE "inventory_transfers" ADD CONSTRAINT "inventory_transfers_two_locations" CHECK ("sourceLocationId" <> "destLocationId");
ALTER TABLE "inventory_transfer_lines" ADD CONSTRAINT "inventory_transfer_lines_quantities"
  CHECK ("quantity" > 0 AND "shippedQuantity" >= 0 AND "receivedQuantity" >= 0 AND "receivedQuantity" <= "shippedQuantity");
ALTER TABLE "inventory_transfer_line_lots" ADD CONSTRAINT "inventory_transfer_line_lots_quantities"
  CHECK ("quantity" > 0 AND "receivedQuantity" >= 0 AND "returnedQuantity" >= 0 AND "receivedQuantity" + "returnedQuantity" <= "quantity");

-- CreateEnum
CREATE TYPE "InventoryHoldScope" AS ENUM ('STOCK_LINE', 'LOT', 'PRODUCT_AT_LOCATION');

-- CreateEnum
CREATE TYPE "InventoryHoldStatus" AS ENUM ('ACTIVE', 'RELEASED', 'EXPIRED');

-- CreateTable
CREATE TABLE "inventory_holds" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "scope" "InventoryHoldScope" NOT NULL,
    "status" "InventoryHoldStatus" NOT NULL DEFAULT 'ACTIVE',
    "stockLineId" TEXT,
    "lotId" TEXT,
    "productMasterId" TEXT,
    "locationId" TEXT,
    "reasonCode" TEXT NOT NULL,
    "note" TEXT,
    "expiresAt" TIMESTAMP(3),
    "createdByType" TEXT NOT NULL,
    "createdBy" TEXT NOT NULL,
    "releasedAt" TIMESTAMP(3),
    "releasedBy" TEXT,
    "releaseNote" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "inventory_holds_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "inventory_hold_lines" (
    "id" TEXT NOT NULL,
    "holdId" TEXT NOT NULL,
    "stockLineId" TEXT NOT NULL,
    "quantity" INTEGER NOT NULL,
    "releasedQuantity" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "inventory_hold_lines_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "inventory_holds_organizationId_status_createdAt_idx" ON "inventory_holds"("organizationId", "status", "createdAt");

-- CreateIndex
CREATE INDEX "inventory_holds_organizationId_expiresAt_idx" ON "inventory_holds"("organizationId", "expiresAt");

-- CreateIndex
CREATE INDEX "inventory_hold_lines_holdId_idx" ON "inventory_hold_lines"("holdId");

-- CreateIndex
CREATE INDEX "inventory_hold_lines_stockLineId_idx" ON "inventory_hold_lines"("stockLineId");

-- AddForeignKey
ALTER TABLE "inventory_holds" ADD CONSTRAINT "inventory_holds_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "inventory_hold_lines" ADD CONSTRAINT "inventory_hold_lines_holdId_fkey" FOREIGN KEY ("holdId") REFERENCES "inventory_holds"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "inventory_hold_lines" ADD CONSTRAINT "inventory_hold_lines_stockLineId_fkey" FOREIGN KEY ("stockLineId") REFERENCES "stock_lines"("id") ON DELETE CASCADE ON UPDATE CASCADE;

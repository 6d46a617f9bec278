-- CreateEnum
CREATE TYPE "AbcClass" AS ENUM ('A', 'B', 'C');

-- CreateEnum
CREATE TYPE "StockBucket" AS ENUM ('ON_HAND', 'RESERVED', 'ON_HOLD', 'PICKED', 'RECALLED', 'EXPIRED');

-- CreateEnum
CREATE TYPE "ReasonDirection" AS ENUM ('INCREASE', 'DECREASE', 'ANY');

-- CreateEnum
CREATE TYPE "AllocationMode" AS ENUM ('SHARE', 'FIXED');

-- AlterTable
ALTER TABLE "organizations" ADD COLUMN     "largeAdjustmentThreshold" INTEGER NOT NULL DEFAULT 100;

-- CreateTable
CREATE TABLE "lots" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "productMasterId" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "expiryDate" DATE,
    "recalled" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "lots_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "bins" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "locationId" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "bins_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "stock_lines" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "productMasterId" TEXT NOT NULL,
    "locationId" TEXT NOT NULL,
    "lotId" TEXT,
    "binId" TEXT,
    "lineKey" TEXT NOT NULL,
    "qtyOnHand" INTEGER NOT NULL DEFAULT 0,
    "qtyReserved" INTEGER NOT NULL DEFAULT 0,
    "qtyOnHold" INTEGER NOT NULL DEFAULT 0,
    "qtyPicked" INTEGER NOT NULL DEFAULT 0,
    "qtyRecalled" INTEGER NOT NULL DEFAULT 0,
    "qtyExpired" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "stock_lines_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "stock_transactions" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "stockLineId" TEXT NOT NULL,
    "productMasterId" TEXT NOT NULL,
    "locationId" TEXT NOT NULL,
    "transactionType" TEXT NOT NULL,
    "bucket" "StockBucket" NOT NULL DEFAULT 'ON_HAND',
    "deltaQty" INTEGER NOT NULL,
    "qtyBefore" INTEGER NOT NULL,
    "qtyAfter" INTEGER NOT NULL,
    "reasonCodeId" TEXT,
    "reasonCode" TEXT,
    "comment" TEXT,
    "rootCause" TEXT,
    "actorType" TEXT NOT NULL,
    "createdBy" TEXT NOT NULL,
    "sourceType" TEXT,
    "sourceId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "stock_transactions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "reason_codes" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "direction" "ReasonDirection" NOT NULL DEFAULT 'ANY',
    "active" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "reason_codes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "inventory_levels" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "productMasterId" TEXT NOT NULL,
    "locationId" TEXT NOT NULL,
    "minQuantity" INTEGER NOT NULL DEFAULT 0,
    "reorderQuantity" INTEGER NOT NULL DEFAULT 0,
    "maxQuantity" INTEGER NOT NULL DEFAULT 0,
    "status" TEXT NOT NULL DEFAULT 'Supported',
    "abcClass" "AbcClass",
    "expectedLeadTimeDays" INTEGER,
    "replenishmentPeriodDays" INTEGER,
    "forecastPeriodDays" INTEGER,
    "forecastQuantity" DOUBLE PRECISION,
    "preferredBinLocationId" TEXT,
    "replenishmentLocationId" TEXT,
    "comments" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "inventory_levels_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "channel_allocation_policies" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "channelId" TEXT NOT NULL,
    "locationId" TEXT NOT NULL,
    "mode" "AllocationMode" NOT NULL DEFAULT 'SHARE',
    "sharePct" DOUBLE PRECISION,
    "fixedQuantity" INTEGER,
    "lowAtpThreshold" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "channel_allocation_policies_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "lots_organizationId_productMasterId_code_key" ON "lots"("organizationId", "productMasterId", "code");

-- CreateIndex
CREATE INDEX "bins_organizationId_idx" ON "bins"("organizationId");

-- CreateIndex
CREATE UNIQUE INDEX "bins_locationId_code_key" ON "bins"("locationId", "code");

-- CreateIndex
CREATE INDEX "stock_lines_organizationId_locationId_productMasterId_idx" ON "stock_lines"("organizationId", "locationId", "productMasterId");

-- CreateIndex
CREATE INDEX "stock_lines_organizationId_id_idx" ON "stock_lines"("organizationId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "stock_lines_productMasterId_locationId_lineKey_key" ON "stock_lines"("productMasterId", "locationId", "lineKey");

-- CreateIndex
CREATE INDEX "stock_transactions_organizationId_createdAt_idx" ON "stock_transactions"("organizationId", "createdAt");

-- CreateIndex
CREATE INDEX "stock_transactions_organizationId_stockLineId_createdAt_idx" ON "stock_transactions"("organizationId", "stockLineId", "createdAt");

-- CreateIndex
CREATE INDEX "stock_transactions_organizationId_productMasterId_locationI_idx" ON "stock_transactions"("organizationId", "productMasterId", "locationId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "reason_codes_organizationId_code_key" ON "reason_codes"("organizationId", "code");

-- CreateIndex
CREATE INDEX "inventory_levels_organizationId_locationId_idx" ON "inventory_levels"("organizationId", "locationId");

-- CreateIndex
CREATE UNIQUE INDEX "inventory_levels_productMasterId_locationId_key" ON "inventory_levels"("productMasterId", "locationId");

-- CreateIndex
CREATE INDEX "channel_allocation_policies_organizationId_locationId_idx" ON "channel_allocation_policies"("organizationId", "locationId");

-- CreateIndex
CREATE UNIQUE INDEX "channel_allocation_policies_channelId_locationId_key" ON "channel_allocation_policies"("channelId", "locationId");

-- AddForeignKey
ALTER TABLE "lots" ADD CONSTRAINT "lots_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "lots" ADD CONSTRAINT "lots_productMasterId_fkey" FOREIGN KEY ("productMasterId") REFERENCES "product_masters"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bins" ADD CONSTRAINT "bins_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bins" ADD CONSTRAINT "bins_locationId_fkey" FOREIGN KEY ("locationId") REFERENCES "locations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "stock_lines" ADD CONSTRAINT "stock_lines_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "stock_lines" ADD CONSTRAINT "stock_lines_productMasterId_fkey" FOREIGN KEY ("productMasterId") REFERENCES "product_masters"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "stock_lines" ADD CONSTRAINT "stock_lines_locationId_fkey" FOREIGN KEY ("locationId") REFERENCES "locations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "stock_lines" ADD CONSTRAINT "stock_lines_lotId_fkey" FOREIGN KEY ("lotId") REFERENCES "lots"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "stock_lines" ADD CONSTRAINT "stock_lines_binId_fkey" FOREIGN KEY ("binId") REFERENCES "bins"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "stock_transactions" ADD CONSTRAINT "stock_transactions_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "stock_transactions" ADD CONSTRAINT "stock_transactions_stockLineId_fkey" FOREIGN KEY ("stockLineId") REFERENCES "stock_lines"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "stock_transactions" ADD CONSTRAINT "stock_transactions_reasonCodeId_fkey" FOREIGN KEY ("reasonCodeId") REFERENCES "reason_codes"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reason_codes" ADD CONSTRAINT "reason_codes_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "inventory_levels" ADD CONSTRAINT "inventory_levels_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "inventory_levels" ADD CONSTRAINT "inventory_levels_productMasterId_fkey" FOREIGN KEY ("productMasterId") REFERENCES "product_masters"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "inventory_levels" ADD CONSTRAINT "inventory_levels_locationId_fkey" FOREIGN KEY ("locationId") REFERENCES "locations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "channel_allocation_policies" ADD CONSTRAINT "channel_allocation_policies_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "channel_allocation_policies" ADD CONSTRAINT "channel_allocation_policies_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "channels"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "channel_allocation_policies" ADD CONSTRAINT "channel_allocation_policies_locationId_fkey" FOREIGN KEY ("locationId") REFERENCES "locations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Quantity invariants the application relies on: every part of on hand is >= 0 and together they
-- never exceed on hand, so available (on hand minus the parts) is never negative. Guarded updates
-- that would break this fail instead of writing.
ALTER TABLE "stock_lines" ADD CONSTRAINT "stock_lines_quantities_check" CHECK (
  "qtyOnHand" >= 0 AND "qtyReserved" >= 0 AND "qtyOnHold" >= 0 AND "qtyPicked" >= 0
  AND "qtyRecalled" >= 0 AND "qtyExpired" >= 0
  AND "qtyReserved" + "qtyOnHold" + "qtyPicked" + "qtyRecalled" + "qtyExpired" <= "qtyOnHand"
);

-- Levels keep min <= reorder <= max.
ALTER TABLE "inventory_levels" ADD CONSTRAINT "inventory_levels_order_check" CHECK (
  "minQuantity" >= 0 AND "minQuantity" <= "reorderQuantity" AND "reorderQuantity" <= "maxQuantity"
);

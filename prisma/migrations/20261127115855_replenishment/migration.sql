-- CreateEnum
CREATE TYPE "ReplenishmentMethod" AS ENUM ('MIN_MAX', 'FORECAST_COVER');

-- CreateEnum
CREATE TYPE "ReplenishmentStatus" AS ENUM ('PROPOSED', 'APPROVED', 'ORDERED', 'CANCELLED');

-- CreateEnum
CREATE TYPE "ReplenishmentSourceType" AS ENUM ('SUPPLIER', 'LOCATION');

-- CreateTable
CREATE TABLE "replenishment_configs" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "locationId" TEXT NOT NULL,
    "method" "ReplenishmentMethod" NOT NULL DEFAULT 'MIN_MAX',
    "reviewPeriodDays" INTEGER NOT NULL DEFAULT 7,
    "safetyStockDays" INTEGER NOT NULL DEFAULT 0,
    "defaultSourceLocationId" TEXT,
    "defaultSupplierId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "updatedByType" TEXT NOT NULL,
    "updatedBy" TEXT NOT NULL,

    CONSTRAINT "replenishment_configs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "replenishment_records" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "productMasterId" TEXT NOT NULL,
    "locationId" TEXT NOT NULL,
    "quantity" INTEGER NOT NULL,
    "sourceType" "ReplenishmentSourceType" NOT NULL,
    "supplierId" TEXT,
    "sourceLocationId" TEXT,
    "needBy" DATE NOT NULL,
    "reason" TEXT,
    "status" "ReplenishmentStatus" NOT NULL DEFAULT 'PROPOSED',
    "purchaseOrderId" TEXT,
    "transferId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "createdByType" TEXT NOT NULL,
    "createdBy" TEXT NOT NULL,
    "approvedAt" TIMESTAMP(3),
    "approvedBy" TEXT,
    "orderedAt" TIMESTAMP(3),
    "orderedBy" TEXT,
    "cancelledAt" TIMESTAMP(3),
    "cancelledBy" TEXT,
    "comment" TEXT,

    CONSTRAINT "replenishment_records_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "replenishment_configs_organizationId_locationId_key" ON "replenishment_configs"("organizationId", "locationId");

-- CreateIndex
CREATE INDEX "replenishment_records_organizationId_locationId_status_crea_idx" ON "replenishment_records"("organizationId", "locationId", "status", "createdAt");

-- CreateIndex
CREATE INDEX "replenishment_records_organizationId_status_createdAt_idx" ON "replenishment_records"("organizationId", "status", "createdAt");

-- AddForeignKey
ALTER TABLE "replenishment_configs" ADD CONSTRAINT "replenishment_configs_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "replenishment_records" ADD CONSTRAINT "replenishment_records_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

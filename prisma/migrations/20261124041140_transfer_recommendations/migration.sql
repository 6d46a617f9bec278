-- CreateEnum
CREATE TYPE "TransferRecommendationStatus" AS ENUM ('PENDING', 'APPROVED', 'EXECUTED', 'REJECTED', 'EXPIRED');

-- CreateEnum
CREATE TYPE "TransferPriority" AS ENUM ('URGENT', 'HIGH', 'MEDIUM', 'LOW');

-- CreateTable
CREATE TABLE "transfer_recommendations" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "productMasterId" TEXT NOT NULL,
    "sourceLocationId" TEXT NOT NULL,
    "destLocationId" TEXT NOT NULL,
    "quantity" INTEGER NOT NULL,
    "priority" "TransferPriority" NOT NULL,
    "status" "TransferRecommendationStatus" NOT NULL DEFAULT 'PENDING',
    "reason" TEXT NOT NULL,
    "estimatedROI" DOUBLE PRECISION,
    "unitMargin" DOUBLE PRECISION,
    "unitTransferCost" DOUBLE PRECISION NOT NULL,
    "unitsAtRisk" INTEGER NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdByType" TEXT NOT NULL,
    "createdBy" TEXT NOT NULL,
    "approvedAt" TIMESTAMP(3),
    "approvedByType" TEXT,
    "approvedBy" TEXT,
    "approvalComment" TEXT,
    "rejectedAt" TIMESTAMP(3),
    "rejectedByType" TEXT,
    "rejectedBy" TEXT,
    "rejectionComment" TEXT,
    "executedAt" TIMESTAMP(3),
    "executedByType" TEXT,
    "executedBy" TEXT,
    "transferId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "transfer_recommendations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "transfer_costs" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "sourceLocationId" TEXT NOT NULL,
    "destLocationId" TEXT NOT NULL,
    "costPerUnit" DOUBLE PRECISION NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "transfer_costs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "transfer_recommendations_organizationId_status_createdAt_idx" ON "transfer_recommendations"("organizationId", "status", "createdAt");

-- CreateIndex
CREATE INDEX "transfer_recommendations_organizationId_updatedAt_idx" ON "transfer_recommendations"("organizationId", "updatedAt");

-- CreateIndex
CREATE INDEX "transfer_recommendations_status_expiresAt_idx" ON "transfer_recommendations"("status", "expiresAt");

-- CreateIndex
CREATE INDEX "transfer_recommendations_productMasterId_idx" ON "transfer_recommendations"("productMasterId");

-- CreateIndex
CREATE INDEX "transfer_recommendations_sourceLocationId_idx" ON "transfer_recommendations"("sourceLocationId");

-- CreateIndex
CREATE INDEX "transfer_recommendations_destLocationId_idx" ON "transfer_recommendations"("destLocationId");

-- CreateIndex
CREATE INDEX "transfer_costs_sourceLocationId_idx" ON "transfer_costs"("sourceLocationId");

-- CreateIndex
CREATE INDEX "transfer_costs_destLocationId_idx" ON "transfer_costs"("destLocationId");

-- CreateIndex
CREATE UNIQUE INDEX "transfer_costs_organizationId_sourceLocationId_destLocation_key" ON "transfer_costs"("organizationId", "sourceLocationId", "destLocationId");

-- AddForeignKey
ALTER TABLE "transfer_recommendations" ADD CONSTRAINT "transfer_recommendations_organizationId_productMasterId_fkey" FOREIGN KEY ("organizationId", "productMasterId") REFERENCES "product_masters"("organizationId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "transfer_recommendations" ADD CONSTRAINT "transfer_recommendations_organizationId_sourceLocationId_fkey" FOREIGN KEY ("organizationId", "sourceLocationId") REFERENCES "locations"("organizationId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "transfer_recommendations" ADD CONSTRAINT "transfer_recommendations_organizationId_destLocationId_fkey" FOREIGN KEY ("organizationId", "destLocationId") REFERENCES "locations"("organizationId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "transfer_costs" ADD CONSTRAINT "transfer_costs_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "transfer_costs" ADD CONSTRAINT "transfer_costs_sourceLocationId_fkey" FOREIGN KEY ("sourceLocationId") REFERENCES "locations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "transfer_costs" ADD CONSTRAINT "transfer_costs_destLocationId_fkey" FOREIGN KEY ("destLocationId") REFERENCES "locations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- One PENDING recommendation per product, source and destination: generating again updates it (ON CONFLICT).
CREATE UNIQUE INDEX "transfer_recommendations_pending_key" ON "transfer_recommendations"("organizationId", "productMasterId", "sourceLocationId", "destLocationId") WHERE "status" = 'PENDING';
